#!/usr/bin/env bash
# Flux's kustomize-controller v1.9.4, the release nearest the commit whose CRDs are in ../shared/schemas/flux/
# (see that folder's README). Built from its own module; the replaces of its go.mod are mirrored
# (the api submodule, replaced by its folder upstream, is required at the same release).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/go-wrapper.sh"
version=${FLUX_KUSTOMIZE_CONTROLLER_VERSION:-v1.9.4}
e2e_go_build kustomize-controller "${version#v}" \
  "github.com/fluxcd/kustomize-controller $version
github.com/fluxcd/kustomize-controller/api $version" \
  "$(sed -n '/^replace-begin/,/^replace-end/p' "${BASH_SOURCE[0]}" | sed '1d;$d;s/^# //')" \
  "github.com/fluxcd/kustomize-controller=kustomize-controller"
exit 0
replace-begin
# github.com/opencontainers/go-digest => github.com/opencontainers/go-digest v1.0.1-0.20220411205349-bde1400a84be
# sigs.k8s.io/kustomize/api => sigs.k8s.io/kustomize/api v0.21.1
# sigs.k8s.io/kustomize/kyaml => sigs.k8s.io/kustomize/kyaml v0.21.1
# gopkg.in/yaml.v3 => gopkg.in/yaml.v3 v3.0.1
replace-end
