#!/usr/bin/env bash
# The Go-built tools of the deployment checks (helm, kustomize, the control plane, Jaeger),
# built from the Go module proxy once and kept outside the clone, so CI and later runs reuse
# them. Each tool is stamped with the version it was built from; a changed pin rebuilds it.
#
#   bash tools/k8s/go-tool.sh ensure helm kustomize ...   # build what is missing or stale
#   bash tools/k8s/go-tool.sh path helm                   # prints the binary's path (ensured)
#   bash tools/k8s/go-tool.sh bin                         # prints the bin directory
#   bash tools/k8s/go-tool.sh pin kwok                    # prints the pin a tool is built from
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
  # Jaeger v2.13.0 (commit 63b27e1810a710ac54dc4522da0538e540bdc545). Its v2 tags are not valid
  # versions of the module path, and the module proxy serves no pseudo-version of a bare commit;
  # Jaeger tags every release twice, and v1.76.0 is that same commit, so that is the version
  # the proxy hands out. cmd/jaeger there is the v2 binary (an OpenTelemetry collector).
  [jaeger]="github.com/jaegertracing/jaeger/cmd/jaeger@v1.76.0"
  # The test control plane (tools/k8s/control-plane): the Kubernetes and etcd binaries come from
  # the tools modules under tools/k8s/control-plane/{k8s,etcd}, whose go.mod holds the same versions.
  [kube-apiserver]="k8s.io/kubernetes/cmd/kube-apiserver@v1.36.3"
  [kube-controller-manager]="k8s.io/kubernetes/cmd/kube-controller-manager@v1.36.3"
  [kube-scheduler]="k8s.io/kubernetes/cmd/kube-scheduler@v1.36.3"
  [etcd]="go.etcd.io/etcd/server/v3@v3.6.16"
  [kwok]="sigs.k8s.io/kwok/cmd/kwok@v0.8.0"
)

# What a recipe stamps into a binary's version (jaeger reports its v2 tag with --version).
JAEGER_V2_TAG=v2.13.0
JAEGER_COMMIT=63b27e1810a710ac54dc4522da0538e540bdc545

built() { [[ -x "$bin/$1" && "$(cat "$bin/$1.version" 2>/dev/null)" == "${PIN[$1]}" ]]; }

build() {
  local tool="$1"
  case "$tool" in
    helm | kustomize | kwok)
      GOBIN="$bin" CGO_ENABLED=0 go install -ldflags='-s -w' "${PIN[$tool]}"
      ;;
    jaeger)
      build_jaeger
      ;;
    kube-apiserver | kube-controller-manager | kube-scheduler)
      # Without the version stamp the server reports v0.0.0-master+$Format:%H$, which clients
      # (kubectl, helm's capabilities) fail to parse.
      local v="${PIN[$tool]##*@}" minor ldflags=(-s -w) pkg
      minor="${v#v*.}" && minor="${minor%%.*}"
      for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
        ldflags+=(-X "$pkg.gitVersion=$v" -X "$pkg.gitMajor=${v:1:1}" -X "$pkg.gitMinor=$minor"
          -X "$pkg.gitTreeState=clean")
      done
      (cd "$here/control-plane/k8s" &&
        CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags="${ldflags[*]}" -o "$bin/$tool" "k8s.io/kubernetes/cmd/$tool")
      ;;
    etcd)
      (cd "$here/control-plane/etcd" &&
        CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags='-s -w' -o "$bin/etcd" go.etcd.io/etcd/server/v3)
      ;;
    *)
      echo "go-tool: unknown tool '$tool' (known: ${!PIN[*]})" >&2
      return 2
      ;;
  esac
  echo "${PIN[$tool]}" >"$bin/$tool.version"
}

# Jaeger's go.mod has a replace directive, which `go install pkg@version` refuses; so it is built
# as the main module, in its own source from the module cache (its go.mod and go.sum pin and
# verify every dependency, as in Jaeger's release build).
build_jaeger() {
  local module="${PIN[jaeger]%%/cmd/*}" version="${PIN[jaeger]##*@}" dir
  dir="$(go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [[ -d "$dir" ]] || { echo "go-tool: no source of $module@$version" >&2; return 1; }
  local info="$module/internal/version"
  (cd "$dir" && CGO_ENABLED=0 nice go build -trimpath -buildvcs=false -o "$bin/jaeger" \
    -ldflags="-s -w -X $info.latestVersion=$JAEGER_V2_TAG -X $info.commitSHA=$JAEGER_COMMIT" \
    ./cmd/jaeger)
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
  pin) echo "${PIN[$2]:?unknown tool}" ;;
  *) sed -n '2,13p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
