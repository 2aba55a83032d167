import { printable, safeText } from '../../../model/safe-text';

/** Errors of the readiness gate. Each carries structured fields besides its message, for callers that report them. */

/** A `wait.resources` item Armada would reject before waiting on anything (Armada's `ManifestException`). */
export class InvalidWaitResourceError extends Error {
  public override readonly name = 'InvalidWaitResourceError';
}

/** A resource that was not ready when the deadline passed, with the last readiness message seen for it. */
export interface NotReadyResource {
  readonly name: string;
  readonly message: string;
  /** Set when Armada's rule judged it unlikely to become ready (e.g. an OnDelete update without `allowAsyncUpdates`). */
  readonly unlikely?: string | undefined;
}

/** A wait that never ran because an earlier one used up the deadline. */
export interface PendingWait {
  readonly type: string;
  readonly labelSelector: string;
}

/** What the timed-out wait was doing when the deadline passed. */
export interface ReadinessTimeoutDetails {
  readonly resourceType: string;
  readonly namespace: string;
  readonly labelSelector: string;
  /** True when a required wait never saw a single resource (Armada's "None found!"). */
  readonly noneFound: boolean;
  /** True when the deadline had already passed before this wait could start. */
  readonly expiredBeforeStart: boolean;
  readonly notReady: readonly NotReadyResource[];
  /** The waits after this one, which never started. */
  readonly notStarted: readonly PendingWait[];
  /** True when no LIST of this wait succeeded before the deadline (the API server was unreachable or failing). */
  readonly neverListed?: boolean | undefined;
  /** The last retried error talking to the API server, if the wait was retrying one. */
  readonly lastError?: string | undefined;
}

/**
 * The deadline passed before every waited-on resource was ready. The message starts with Armada's
 * summary line and then lists each resource that was not ready, with its last readiness message.
 */
export class ReadinessTimeoutError extends Error implements ReadinessTimeoutDetails {
  public override readonly name = 'ReadinessTimeoutError';
  public readonly resourceType: string;
  public readonly namespace: string;
  public readonly labelSelector: string;
  public readonly noneFound: boolean;
  public readonly expiredBeforeStart: boolean;
  public readonly notReady: readonly NotReadyResource[];
  public readonly notStarted: readonly PendingWait[];
  public readonly neverListed: boolean;
  public readonly lastError: string | undefined;

  constructor(details: ReadinessTimeoutDetails) {
    super(formatTimeout(details));
    this.resourceType = details.resourceType;
    this.namespace = details.namespace;
    this.labelSelector = details.labelSelector;
    this.noneFound = details.noneFound;
    this.expiredBeforeStart = details.expiredBeforeStart;
    this.notReady = details.notReady;
    this.notStarted = details.notStarted;
    this.neverListed = details.neverListed === true;
    this.lastError = details.lastError;
  }
}

function formatTimeout(d: ReadinessTimeoutDetails): string {
  const lines: string[] = [];
  if (d.expiredBeforeStart) {
    // Armada's own wording when a wait starts with no time left (`ResourceWait._wait`).
    lines.push(`Timed out waiting for resource type=${d.resourceType}, namespace=${d.namespace}, labels=${d.labelSelector}`);
  } else if (d.neverListed) {
    lines.push(
      `Timed out waiting for ${d.resourceType}s (namespace=${d.namespace}, labels=(${d.labelSelector})). ` +
        `Could not list them: ${d.lastError ?? 'no answer from the API server'}`,
    );
  } else {
    const detail = d.noneFound
      ? `None found! Are \`wait.labels\` correct? Does \`wait.resources\` need to exclude \`type: ${d.resourceType}\`?`
      : `These ${d.resourceType}s were not ready=${pythonList(d.notReady.map((r) => r.name))}`;
    lines.push(`Timed out waiting for ${d.resourceType}s (namespace=${d.namespace}, labels=(${d.labelSelector})). ${detail}`);
  }
  for (const r of d.notReady) {
    const unlikely = r.unlikely ? ` (unlikely to become ready: ${r.unlikely})` : '';
    lines.push(`  ${d.resourceType} ${r.name}: ${r.message}${unlikely}`);
  }
  if (d.lastError && !d.neverListed) lines.push(`Last error from the API server: ${d.lastError}`);
  if (d.notStarted.length > 0) {
    const rest = d.notStarted.map((w) => `${w.type} (labels=${w.labelSelector})`).join(', ');
    lines.push(`Not waited for, the deadline passed first: ${rest}`);
  }
  // Resource messages come from the cluster, errors from its answers: one line each, escaped.
  return lines.map((l) => printable(l)).join('\n');
}

/** Armada prints `sorted(unready)`, a Python list repr; keep the same text so logs can be compared. */
function pythonList(names: readonly string[]): string {
  return `[${[...names].sort().map((n) => `'${n}'`).join(', ')}]`;
}

/** The API server answered with an error status (or sent a watch ERROR event that is not retried). */
export class KubernetesApiError extends Error {
  public override readonly name = 'KubernetesApiError';
  constructor(
    message: string,
    /** HTTP status, or the `code` of the watch ERROR event's Status object. */
    public readonly statusCode: number | undefined,
    /** The Status `reason` (`Expired`, `Forbidden`, ...), when the server sent one. */
    public readonly reason?: string,
    /** How long the server asked to wait before retrying (its `Retry-After`), in milliseconds. */
    public readonly retryAfterMs?: number,
  ) {
    // The message quotes the server's answer, which may hold terminal sequences or a URL.
    super(safeText(message));
  }

  /**
   * Worth retrying until the deadline: 5xx and 429 (server-side trouble), 401 (a token being
   * refreshed: every request applies the kubeconfig's auth again), and a watch ERROR event
   * without a code, which says nothing about whether the next attempt fails too.
   */
  public get retryable(): boolean {
    const code = this.statusCode;
    return code === undefined || code >= 500 || code === 429 || code === 401;
  }
}

/** The connection to the API server failed or broke mid-response; the wait retries it until the deadline. */
export class TransportError extends Error {
  public override readonly name: string = 'TransportError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(safeText(message), options);
  }
}

/**
 * A connection said nothing for longer than the idle limit: a proxy or load balancer that stopped
 * forwarding leaves it open but dead. Retried, and a watch that went silent is replaced by a LIST.
 */
export class IdleConnectionError extends TransportError {
  public override readonly name = 'IdleConnectionError';
}

/** The kubeconfig's credentials could not be applied (an exec plugin or token refresh failed); retried until the deadline. */
export class CredentialError extends TransportError {
  public override readonly name = 'CredentialError';
}

/**
 * The kubeconfig was refused before any request was sent (a plain-HTTP server that
 * `@kubernetes/client-node` will not talk to): nothing was learned from the cluster, and trying
 * again cannot help. The message names the request; {@link cannot} says it for the caller's task.
 */
export class KubeconfigRefusedError extends Error {
  public override readonly name = 'KubeconfigRefusedError';
  constructor(
    request: string,
    /** Why, and what to change in the kubeconfig. */
    public readonly reason: string,
  ) {
    super(`${request}: ${reason}`);
  }

  /** `cannot <what>: ...`, for a caller that meant to do `what` and learned nothing of the cluster. */
  public cannot(what: string): string {
    return `cannot ${what}: no request can be sent to the cluster, because ${this.reason}`;
  }
}

/** A LIST answer or a watch event is larger than the gate accepts; not retried, since the next answer would be as large. */
export class ResponseTooLargeError extends Error {
  public override readonly name = 'ResponseTooLargeError';
}
