/**
 * Flux's helm-controller, of the v1.6 line whose CRDs are in ../shared/schemas/flux/
 * (v1.6.0-21-g0f61a86, 2026-07-23). Its go.mod's replaces are mirrored.
 *
 * Why v1.6.4 and not v1.6.3 (of the CRDs' day): v1.6.3 replaced Helm with Flux's fork
 * (`helm.sh/helm/v4 => github.com/fluxcd/helm/v4 v4.2.4-flux.1`), which the module proxy does not
 * serve; v1.6.4 went back to upstream Helm 4.2.4 because that release carries the fork's fix
 * (helm-controller#1565: "the main branch never moved to the fork"). So v1.6.4 runs the Helm that
 * v1.6.3's replace meant, built from a module the proxy serves.
 */
import type { GoComponent } from './go-components';
import { wrapperComponent } from './go-wrapper';

export const HELM_CONTROLLER_VERSION = 'v1.6.4';

export function helmController(): GoComponent {
  return wrapperComponent({
    component: 'helm-controller',
    version: HELM_CONTROLLER_VERSION.replace(/^v/, ''),
    // The api submodule, replaced by ./api upstream, is published at the same release.
    requires: { 'github.com/fluxcd/helm-controller': HELM_CONTROLLER_VERSION, 'github.com/fluxcd/helm-controller/api': HELM_CONTROLLER_VERSION },
    replaces: {
      'github.com/opencontainers/go-digest': 'github.com/opencontainers/go-digest v1.0.1-0.20231025023718-d50d2fec9c98',
      'sigs.k8s.io/kustomize/api': 'sigs.k8s.io/kustomize/api v0.21.1',
      'sigs.k8s.io/kustomize/kyaml': 'sigs.k8s.io/kustomize/kyaml v0.21.1',
    },
    binaries: { 'helm-controller': 'github.com/fluxcd/helm-controller' },
  });
}
