#!/usr/bin/env bash
# Builds Tessera's images from the Containerfile at the repository root (docs/kubernetes.md#images).
#   tools/image/build.sh [--flavor cpu|cuda] [--local-base] [--engine podman|buildah|docker]
# Builds the `tessera` and `tessera-audio` targets as
#   $REGISTRY/tessera:$VERSION[-cuda] and $REGISTRY/tessera-audio:$VERSION[-cuda]
# (REGISTRY default ghcr.io/tessera-ai, VERSION default package.json's), then prints their sizes.
# --local-base builds against tools/image/local-base.sh's image instead of node:24-bookworm-slim
# (for machines without registry access). BASE_IMAGE / CUDA_BASE_IMAGE in the environment pick
# other bases. Not part of CI: it needs a container engine, root (or rootless set-up) and minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."

flavor=cpu
engine=""
local_base=false
while (($#)); do
  case "$1" in
    --flavor) flavor="$2"; shift 2 ;;
    --engine) engine="$2"; shift 2 ;;
    --local-base) local_base=true; shift ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
case "$flavor" in cpu | cuda) ;; *) echo "--flavor is cpu or cuda" >&2; exit 2 ;; esac
if [[ -z "$engine" ]]; then
  for candidate in podman buildah docker; do
    if command -v "$candidate" >/dev/null; then engine="$candidate"; break; fi
  done
fi
[[ -n "$engine" ]] || { echo "no podman, buildah or docker on PATH" >&2; exit 1; }

registry="${REGISTRY:-ghcr.io/tessera-ai}"
version="${VERSION:-$(node -p 'require("./package.json").version')}"
suffix=""
[[ "$flavor" == cuda ]] && suffix="-cuda"

args=(
  --file Containerfile
  --build-arg "FLAVOR=$flavor"
  --build-arg "VERSION=$version"
  --build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)"
  --build-arg "CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
)
if $local_base; then
  BASE_IMAGE="${BASE_IMAGE:-localhost/tessera-base:bookworm}"
  "$engine" image exists "$BASE_IMAGE" 2>/dev/null || bash tools/image/local-base.sh "$BASE_IMAGE"
fi
[[ -n "${BASE_IMAGE:-}" ]] && args+=(--build-arg "BASE_IMAGE=$BASE_IMAGE")
[[ -n "${CUDA_BASE_IMAGE:-}" ]] && args+=(--build-arg "CUDA_BASE_IMAGE=$CUDA_BASE_IMAGE")
# Build steps reach the npm registry and the distribution's mirror; the host's network is the
# one that is sure to (a rootful engine's bridge may have no route where the host has a proxy).
[[ "$engine" != docker ]] && args+=(--network "${BUILD_NETWORK:-host}")
[[ "$engine" == buildah ]] && build=(buildah bud --layers) || build=("$engine" build)

for target in tessera tessera-audio; do
  tag="$registry/$target:$version$suffix"
  echo "== $target → $tag"
  "${build[@]}" "${args[@]}" --target "$target" --tag "$tag" .
done
echo "== sizes"
for target in tessera tessera-audio; do
  tag="$registry/$target:$version$suffix"
  if [[ "$engine" == buildah ]]; then
    buildah images --noheading --format '{{.Name}}:{{.Tag}}  {{.Size}}' "$tag"
  else
    "$engine" image inspect --format "{{.Size}}" "$tag" |
      awk -v t="$tag" '{ printf "%s  %.0f MB\n", t, $1 / 1e6 }'
  fi
done
