#!/usr/bin/env bash
# Helmfile (issue 46's engine) at a pinned release, built from its own module; its go.mod's
# replaces of the k8s.io modules are mirrored.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/go-wrapper.sh"
version=${HELMFILE_VERSION:-v1.8.0}
E2E_LDFLAGS="-X go.szostok.io/version.version=$version" \
  e2e_go_build helmfile "${version#v}" \
  "github.com/helmfile/helmfile $version" \
  "k8s.io/api => k8s.io/api v0.35.4
k8s.io/apimachinery => k8s.io/apimachinery v0.36.0
k8s.io/client-go => k8s.io/client-go v0.35.4" \
  "github.com/helmfile/helmfile=helmfile"
