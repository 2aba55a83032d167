import { ArmadaValidationError, Diagnostic, hasErrors } from '../model/diagnostics';
import { Plan } from '../model/plan';
import { SchemaVersion } from '../model/spec';
import { ArmadaDocument, toArmadaDocuments } from '../model/wire/documents';
import { ArmadaManifest } from './armada-manifest';

/** Helpers for unit tests of sites: the plan, the diagnostics and the documents, without synthesizing files. */
export class Testing {
  /**
   * The ordered deployment steps, with release names, namespaces and wait budgets.
   * Throws an {@link ArmadaValidationError} when the definition has errors.
   */
  public static plan(manifest: ArmadaManifest): Plan {
    return manifest.plan();
  }

  /** Every error and warning of the definition (never throws for a user mistake). */
  public static validate(manifest: ArmadaManifest): readonly Diagnostic[] {
    return manifest.resolve().diagnostics;
  }

  /**
   * The classic Armada documents `armada apply` would read.
   * Throws an {@link ArmadaValidationError} when the definition has errors.
   */
  public static documents(manifest: ArmadaManifest, options: { readonly version?: SchemaVersion | undefined } = {}): ArmadaDocument[] {
    const r = manifest.resolve();
    const out = toArmadaDocuments(r.spec, options);
    const all = [...r.diagnostics, ...out.diagnostics.all];
    if (hasErrors(all)) throw new ArmadaValidationError(all, `ArmadaManifest ${manifest.node.path}`);
    return out.documents;
  }
}
