/**
 * Helmfile (issue 46's engine) at a pinned release. Its go.mod's replaces of the k8s.io modules
 * are mirrored.
 */
import type { GoComponent } from './go-components';
import { wrapperComponent } from './go-wrapper';

export const HELMFILE_VERSION = 'v1.8.0';

export function helmfile(): GoComponent {
  return wrapperComponent({
    component: 'helmfile',
    version: HELMFILE_VERSION.replace(/^v/, ''),
    requires: { 'github.com/helmfile/helmfile': HELMFILE_VERSION },
    replaces: {
      'k8s.io/api': 'k8s.io/api v0.35.4',
      'k8s.io/apimachinery': 'k8s.io/apimachinery v0.36.0',
      'k8s.io/client-go': 'k8s.io/client-go v0.35.4',
    },
    binaries: { helmfile: 'github.com/helmfile/helmfile' },
    // What `helmfile --version` prints.
    ldflags: `-X go.szostok.io/version.version=${HELMFILE_VERSION}`,
  });
}
