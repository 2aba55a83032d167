#!/usr/bin/env bash
# The Pulumi CLI and its Node.js language host, at the version of the project's `@pulumi/pulumi`
# devDependency (the engine and the SDK the tests load must agree on the protocol).
# pkg/v3's go.mod replaces sdk/v3 with its sibling folder (mirrored as the same release) and
# atotto/clipboard with a fork.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/go-wrapper.sh"
version=${PULUMI_VERSION:-$(node -p "require('$here/../../package.json').devDependencies['@pulumi/pulumi']")}
E2E_LDFLAGS="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
  e2e_go_build pulumi "$version" \
  "github.com/pulumi/pulumi/pkg/v3 v$version
github.com/pulumi/pulumi/sdk/v3 v$version" \
  "github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e" \
  "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi=pulumi"
