#!/usr/bin/env bash
# The Go-built tools of the deployment checks (helm, kustomize, the control plane, Jaeger),
# built from the Go module proxy once and kept outside the clone, so CI and later runs reuse
# them. Each tool is stamped with the version it was built from; a changed pin rebuilds it.
#
#   bash tools/k8s/go-tool.sh ensure helm kustomize ...   # build what is missing or stale
#   bash tools/k8s/go-tool.sh path helm                   # prints the binary's path (ensured)
#   bash tools/k8s/go-tool.sh bin                         # prints the bin directory
#
# Cache: TESSERA_TOOLS_CACHE (default ~/.cache/tessera-tools): bin/ holds the binaries,
# bin/<tool>.version the pin each was built from.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${TESSERA_TOOLS_CACHE:-$HOME/.cache/tessera-tools}"
bin="$cache/bin"
mkdir -p "$bin"

# tool → the pin it is built from (what `go install` takes, or a recipe's version).
declare -A PIN=(
  [helm]="helm.sh/helm/v3/cmd/helm@v3.22.0"
  [kustomize]="sigs.k8s.io/kustomize/kustomize/v5@v5.8.0" # v5.8.1+ need Go 1.27
)

built() { [[ -x "$bin/$1" && "$(cat "$bin/$1.version" 2>/dev/null)" == "${PIN[$1]}" ]]; }

build() {
  local tool="$1"
  case "$tool" in
    helm | kustomize)
      GOBIN="$bin" CGO_ENABLED=0 go install -ldflags='-s -w' "${PIN[$tool]}"
      ;;
    *)
      echo "go-tool: unknown tool '$tool' (known: ${!PIN[*]})" >&2
      return 2
      ;;
  esac
  echo "${PIN[$tool]}" >"$bin/$tool.version"
}

ensure() {
  command -v go >/dev/null 2>&1 || {
    echo "go-tool: Go is required (https://go.dev/dl; CI installs it)" >&2
    exit 1
  }
  for tool in "$@"; do
    [[ -n "${PIN[$tool]:-}" ]] || { echo "go-tool: unknown tool '$tool'" >&2; exit 2; }
    built "$tool" && continue
    echo "go-tool: building $tool (${PIN[$tool]})" >&2
    local started=$SECONDS
    build "$tool"
    echo "go-tool: $tool built in $((SECONDS - started)) s" >&2
  done
}

case "${1:-}" in
  ensure) shift; ensure "$@" ;;
  path) ensure "$2" >&2; echo "$bin/$2" ;;
  bin) echo "$bin" ;;
  *) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
