/**
 * Hooks that output targets register when they are loaded, so that a manifest created inside a
 * target's scope (an `ArmadaManifest` inside a `cdk8s.Chart`) renders without extra code. The
 * constructs themselves never import a target.
 */
import type { ArmadaManifest } from './armada-manifest';

type ManifestHook = (manifest: ArmadaManifest) => void;

const hooks: ManifestHook[] = [];

/** Called by a target module on load; runs for every manifest created afterwards. */
export function onManifestCreated(hook: ManifestHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

/** Runs the registered hooks for a new manifest. */
export function runManifestHooks(manifest: ArmadaManifest): void {
  for (const h of hooks) h(manifest);
}
