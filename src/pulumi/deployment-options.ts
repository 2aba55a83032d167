/**
 * Checks of the `ManifestDeployment` options that are not the manifest's (JavaScript callers can
 * pass anything), as diagnostics reported with the manifest's own errors.
 */
import { Diagnostic, show } from '../model/diagnostics';
import { DiagnosticCodes } from '../model/codes';

/** Helm's storage drivers (`action.Configuration.Init`, Helm 3 and 4); the empty name is `secret`. */
export const HELM_DRIVERS: readonly string[] = ['secret', 'secrets', 'configmap', 'configmaps', 'memory', 'sql'];

/** What {@link optionDiagnostics} checks. */
export interface CheckedOptions {
  readonly takeover?: unknown;
  readonly helmDriver?: unknown;
}

/**
 * An error for each option of the wrong type or value, naming the option, the value received and
 * what is allowed.
 * @param location - where to report them (`ManifestDeployment site`)
 */
export function optionDiagnostics(options: CheckedOptions, location: string, isOpaque: (v: unknown) => boolean = () => false): Diagnostic[] {
  const out: Diagnostic[] = [];
  const error = (field: string, message: string) => out.push({ severity: 'error', location, field, message, code: DiagnosticCodes.PULUMI_OPTION });
  const received = (v: unknown) => (isOpaque(v) ? 'a Pulumi output' : Array.isArray(v) ? 'an array' : v !== null && typeof v === 'object' ? 'an object' : show(v));
  if (options.takeover !== undefined && typeof options.takeover !== 'boolean') {
    error('takeover', `must be true or false; received ${received(options.takeover)}`);
  }
  if (options.helmDriver !== undefined && (typeof options.helmDriver !== 'string' || !HELM_DRIVERS.includes(options.helmDriver))) {
    error('helmDriver', `must be one of Helm's storage drivers (${HELM_DRIVERS.join(', ')}), as the Kubernetes provider is given it; received ${received(options.helmDriver)}`);
  }
  return out;
}
