#!/usr/bin/env bash
# Shared helper for the engine recipes: builds Go commands from their upstream modules, through
# the Go module proxy by module name, inside a throwaway wrapper module. A wrapper is needed
# because `go install mod@version` refuses modules whose go.mod has `replace` directives; the
# wrapper mirrors those replaces (each recipe lists them) so the build resolves as upstream's does.
#
# Usage (sourced by a recipe):
#   e2e_go_build <component> <version> <require-lines> <replace-lines> <pkg>=<binary>...
# A <pkg> may be a folder of the wrapper (./cmd/x) that the recipe's e2e_before_build fills.
# Output: ${ARMADA_CDK_E2E_CACHE:-$HOME/.cache/armada-cdk-e2e}/<component>-<version>/bin/<binary>
# A `.stamp` file holding the version marks a complete build; without it the folder is rebuilt.
set -euo pipefail

e2e_cache_dir() {
  echo "${ARMADA_CDK_E2E_CACHE:-$HOME/.cache/armada-cdk-e2e}/$1-$2"
}

e2e_go_build() {
  local component=$1 version=$2 requires=$3 replaces=$4
  shift 4
  local dir
  dir=$(e2e_cache_dir "$component" "$version")
  if [[ -f "$dir/.stamp" && "$(cat "$dir/.stamp")" == "$version" ]]; then
    echo "e2e build: $component $version cached in $dir" >&2
    return 0
  fi
  local work start
  start=$(date +%s)
  work=$(mktemp -d "${TMPDIR:-/tmp}/armada-cdk-e2e-build.XXXXXX")
  # The wrapper folder is removed on every exit path; a half-built cache folder has no stamp.
  trap 'rm -rf "$work"' RETURN
  rm -rf "$dir"
  mkdir -p "$dir/bin"
  {
    echo "module armada-cdk-e2e/build/$component"
    echo
    echo "go 1.25"
    echo
    printf 'require (\n%s\n)\n\n' "$requires"
    if [[ -n "$replaces" ]]; then printf 'replace (\n%s\n)\n' "$replaces"; fi
  } >"$work/go.mod"
  local mods=() spec
  # `go get module@version` for each pinned module, never `go get package`, which would upgrade.
  while read -r m v; do [[ -n "$m" ]] && mods+=("$m@$v"); done <<<"$requires"
  (
    cd "$work"
    # Resolve the full module graph (and go.sum) for exactly the packages built, then build.
    GOFLAGS=-mod=mod nice -n 10 go get "${mods[@]}"
    # A recipe may prepare local packages (upstream's own generate step) before the build.
    if declare -F e2e_before_build >/dev/null; then e2e_before_build "$work"; fi
    for spec in "$@"; do
      echo "e2e build: $component $version: go build ${spec%%=*}" >&2
      CGO_ENABLED=0 GOFLAGS=-mod=mod nice -n 10 go build -trimpath -ldflags "-s -w ${E2E_LDFLAGS:-}" \
        -o "$dir/bin/${spec#*=}" "${spec%%=*}"
    done
  )
  echo "$version" >"$dir/.stamp"
  echo "e2e build: $component $version built in $(( $(date +%s) - start ))s (cold) into $dir" >&2
}
