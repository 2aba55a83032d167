/**
 * Flux's kustomize-controller, the release nearest the commit whose CRDs are in
 * ../shared/schemas/flux/ (v1.9.0-36-g186fb3b, 2026-08-01; v1.9.4 is of 2026-07-23). Its go.mod's
 * replaces are mirrored.
 */
import type { GoComponent } from './go-components';
import { wrapperComponent } from './go-wrapper';

export const KUSTOMIZE_CONTROLLER_VERSION = 'v1.9.4';

export function kustomizeController(): GoComponent {
  return wrapperComponent({
    component: 'kustomize-controller',
    version: KUSTOMIZE_CONTROLLER_VERSION.replace(/^v/, ''),
    // The api submodule, replaced by ./api upstream, is published at the same release.
    requires: { 'github.com/fluxcd/kustomize-controller': KUSTOMIZE_CONTROLLER_VERSION, 'github.com/fluxcd/kustomize-controller/api': KUSTOMIZE_CONTROLLER_VERSION },
    replaces: {
      'github.com/opencontainers/go-digest': 'github.com/opencontainers/go-digest v1.0.1-0.20220411205349-bde1400a84be',
      'sigs.k8s.io/kustomize/api': 'sigs.k8s.io/kustomize/api v0.21.1',
      'sigs.k8s.io/kustomize/kyaml': 'sigs.k8s.io/kustomize/kyaml v0.21.1',
      'gopkg.in/yaml.v3': 'gopkg.in/yaml.v3 v3.0.1',
    },
    binaries: { 'kustomize-controller': 'github.com/fluxcd/kustomize-controller' },
  });
}
