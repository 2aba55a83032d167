/**
 * Acknowledged warnings: a divergence a site accepts (a wait the airship operator skips, a field
 * Flux cannot carry) is said once, with why, on the construct it concerns, so that what the
 * outputs still print is worth reading. The shape follows aws-cdk's
 * `Annotations.of(scope).acknowledgeWarning(id, reason)`.
 */
import { IConstruct } from 'constructs';
import { DiagnosticCodes } from '../model/codes';
import { Diagnostic, ruleField } from '../model/diagnostics';

/** The node metadata type an acknowledgement is stored as (visible in the construct tree). */
const METADATA = 'armada-cdk:acknowledge-warning';
const CODES: ReadonlySet<string> = new Set(Object.values(DiagnosticCodes));

/** An acknowledgement as stored in the node's metadata. */
interface Acknowledgement {
  readonly id: string;
  readonly reason: string;
}

/**
 * The warnings of a construct and of everything inside it.
 *
 * A warning's id is its code (`operator-differs`), or its code and the field it is about
 * (`operator-differs:wait.resources[].minReady`), as printed in brackets after each warning.
 */
export class Warnings {
  /** The warnings of `scope`: a chart, a group, a manifest, an output or a `cdk8s.Chart`. */
  public static of(scope: IConstruct): Warnings {
    return new Warnings(scope);
  }

  private constructor(private readonly scope: IConstruct) {}

  /**
   * Accepts the warnings with this id about this construct and everything inside it: the outputs
   * no longer report them. Acknowledge on an output (or its `cdk8s.Chart`) to accept what that
   * output alone warns about, on a chart or manifest for every output.
   * @param id - a code (`operator-differs`) or a code and a field (`operator-differs:wait`)
   * @param reason - why the divergence is accepted, for whoever reads the site next
   */
  public acknowledge(id: string, reason: string): void {
    const code = typeof id === 'string' ? id.split(':')[0] : undefined;
    if (code === undefined || !CODES.has(code)) {
      throw new Error(`${this.scope.node.path || '<root>'}: acknowledge: received id ${JSON.stringify(id)}; an id is a warning code (such as "operator-differs"), optionally followed by ":" and a field, as printed in brackets after each warning`);
    }
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new Error(`${this.scope.node.path || '<root>'}: acknowledge ${JSON.stringify(id)}: received reason ${JSON.stringify(reason)}; say why the warning is accepted`);
    }
    this.scope.node.addMetadata(METADATA, { id, reason } satisfies Acknowledgement);
  }

  /** The ids acknowledged on this construct itself (not its scopes), with their reasons. */
  public get acknowledged(): Readonly<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const m of this.scope.node.metadata) {
      if (m.type === METADATA) out[(m.data as Acknowledgement).id] = (m.data as Acknowledgement).reason;
    }
    return out;
  }
}

/**
 * @internal The id of a warning as printed and acknowledged: its code, and the field it is about
 * with list positions and value keys left out (`wait.resources[].minReady`, `values`).
 */
export function warningId(d: Diagnostic): string {
  const field = d.field === undefined ? '' : ruleField(d.field);
  return field === '' ? d.code : `${d.code}:${field}`;
}

/**
 * @internal The warnings nobody acknowledged. A warning is acknowledged on the construct its
 * location names (found among `trees`) or any scope of it, or on any scope of `reporter` (the
 * output that reports it).
 */
export function unacknowledged(warnings: readonly Diagnostic[], reporter: IConstruct, trees: readonly IConstruct[]): Diagnostic[] {
  if (warnings.length === 0) return [];
  const acks = new Map<IConstruct, ReadonlySet<string>>();
  const idsOf = (c: IConstruct): ReadonlySet<string> => {
    let ids = acks.get(c);
    if (ids === undefined) {
      ids = new Set(c.node.metadata.filter((m) => m.type === METADATA).map((m) => (m.data as Acknowledgement).id));
      acks.set(c, ids);
    }
    return ids;
  };
  const chain = (c: IConstruct | undefined): IConstruct[] => (c === undefined ? [] : c.node.scopes);
  const byPath = new Map<string, IConstruct>();
  for (const t of trees) for (const c of t.node.findAll()) if (!byPath.has(c.node.path)) byPath.set(c.node.path, c);
  const own = chain(reporter);
  return warnings.filter((d) => {
    const id = warningId(d);
    const scopes = [...chain(byPath.get(d.location)), ...own];
    return !scopes.some((s) => {
      const ids = idsOf(s);
      return ids.has(id) || ids.has(d.code);
    });
  });
}
