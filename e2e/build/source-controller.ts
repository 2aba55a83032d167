/**
 * Flux's source-controller, the release nearest the commit whose CRDs are in ../shared/schemas/flux/
 * (v1.9.0-13-g39b711b1, 2026-07-02; v1.9.1 is of 2026-06-30). Its go.mod's replaces are mirrored.
 */
import type { GoComponent } from './go-components';
import { wrapperComponent } from './go-wrapper';

export const SOURCE_CONTROLLER_VERSION = 'v1.9.1';

export function sourceController(): GoComponent {
  return wrapperComponent({
    component: 'source-controller',
    version: SOURCE_CONTROLLER_VERSION.replace(/^v/, ''),
    // The api submodule, replaced by ./api upstream, is published at the same release.
    requires: { 'github.com/fluxcd/source-controller': SOURCE_CONTROLLER_VERSION, 'github.com/fluxcd/source-controller/api': SOURCE_CONTROLLER_VERSION },
    replaces: {
      'github.com/opencontainers/go-digest': 'github.com/opencontainers/go-digest v1.0.1-0.20220411205349-bde1400a84be',
    },
    binaries: { 'source-controller': 'github.com/fluxcd/source-controller' },
  });
}
