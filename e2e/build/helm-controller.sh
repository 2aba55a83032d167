#!/usr/bin/env bash
# Flux's helm-controller v1.6.4, the release of the v1.6 line nearest the commit whose CRDs are in
# ../shared/schemas/flux/ (see that folder's README). Built from its own module; the replaces of its
# go.mod are mirrored (the api submodule, replaced by its folder upstream, is required at the same
# release). v1.6.3 replaced Helm with Flux's fork (github.com/fluxcd/helm/v4 v4.2.4-flux.1), which the
# module proxy does not serve; v1.6.4 moved back to upstream Helm 4.2.4 because that release carries
# the fork's fix (helm-controller#1565), so v1.6.4 is the build that runs the Helm Flux meant.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/go-wrapper.sh"
version=${FLUX_HELM_CONTROLLER_VERSION:-v1.6.4}
e2e_go_build helm-controller "${version#v}" \
  "github.com/fluxcd/helm-controller $version
github.com/fluxcd/helm-controller/api $version" \
  "$(sed -n '/^replace-begin/,/^replace-end/p' "${BASH_SOURCE[0]}" | sed '1d;$d;s/^# //')" \
  "github.com/fluxcd/helm-controller=helm-controller"
exit 0
replace-begin
# github.com/opencontainers/go-digest => github.com/opencontainers/go-digest v1.0.1-0.20231025023718-d50d2fec9c98
# sigs.k8s.io/kustomize/api => sigs.k8s.io/kustomize/api v0.21.1
# sigs.k8s.io/kustomize/kyaml => sigs.k8s.io/kustomize/kyaml v0.21.1
replace-end
