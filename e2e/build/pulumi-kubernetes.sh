#!/usr/bin/env bash
# The Pulumi Kubernetes provider (pulumi-resource-kubernetes), installed later as a plugin from
# the built file. The project pins `@pulumi/kubernetes` (package.json); the Go module proxy this
# project can reach serves one version of the provider module only, a pseudo-version of
# 2026-01-15 (one day before the sdk/v4.25.0 tag), so that is what is built until a release
# tag is served: PULUMI_KUBERNETES_MODULE_VERSION overrides it. Its go.mod replaces sdk/v4 with
# its sibling folder: mirrored as the nearest sdk release.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/go-wrapper.sh"
module_version=${PULUMI_KUBERNETES_MODULE_VERSION:-v4.0.0-20260115033456-f47bc2d6f199}
sdk_version=${PULUMI_KUBERNETES_SDK_VERSION:-v4.25.0}
# The version the provider reports (its GetPluginInfo), and the cache folder's name.
reported=${module_version#v}
# The command's main.go embeds schema-embed.json, which upstream's Makefile makes with the
# package's own `go generate` step (generate.go: schema.json stamped with the version). The module
# ships schema.json and generate.go, so the package is copied into the wrapper and generated there.
e2e_before_build() {
  local src
  src="$(GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' github.com/pulumi/pulumi-kubernetes/provider/v4)/cmd/pulumi-resource-kubernetes"
  mkdir -p "$1/cmd/pulumi-resource-kubernetes"
  cp "$src"/*.go "$src"/*.json "$1/cmd/pulumi-resource-kubernetes/"
  chmod -R u+w "$1/cmd"
  (cd "$1/cmd/pulumi-resource-kubernetes" && VERSION="$reported" GOFLAGS=-mod=mod nice -n 10 go run generate.go)
}
E2E_LDFLAGS="-X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=$reported" \
  e2e_go_build pulumi-kubernetes "$reported" \
  "github.com/pulumi/pulumi-kubernetes/provider/v4 $module_version
github.com/pulumi/pulumi-kubernetes/sdk/v4 $sdk_version" \
  "" \
  "./cmd/pulumi-resource-kubernetes=pulumi-resource-kubernetes"
