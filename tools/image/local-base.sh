#!/usr/bin/env bash
# A stand-in for node:24-bookworm-slim where no container registry can be reached: a Debian
# bookworm minbase root filesystem (debootstrap from the Debian mirror) with the Node.js LTS CI runs
# (tools/ci/node-dist.sh: the official build, from the npm registry) and this machine's npm laid
# out as the official image has them (under /usr/local), imported as a local image.
# The certificate authorities this machine adds (/usr/local/share/ca-certificates: a proxy that
# inspects TLS, say) go in too, as a site's own base image carries them: without them npm cannot
# reach the registry from a build step.
#   tools/image/local-base.sh [image name, default localhost/tessera-base:bookworm]
# Needs root, debootstrap and podman. The root filesystem is kept in $TESSERA_IMAGE_WORK
# (default /var/tmp/tessera-image) and reused.
set -euo pipefail
image="${1:-localhost/tessera-base:bookworm}"
work="${TESSERA_IMAGE_WORK:-/var/tmp/tessera-image}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
rootfs="$work/rootfs"

node_bin="$(bash "$(dirname "$0")/../ci/node-dist.sh" bin)/node"
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")" # …/node_modules/npm

if [[ ! -x "$rootfs/usr/bin/apt-get" ]]; then
  mkdir -p "$work"
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror"
fi
# The security and updates suites, as the official Debian images list them.
cat >"$rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb

install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
rm -rf "$rootfs/usr/local/lib/node_modules/npm"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

mkdir -p "$rootfs/usr/local/share/ca-certificates" "$rootfs/etc/ssl/certs"
cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/" 2>/dev/null || true
# Until an image installs ca-certificates (which rebuilds it with the ones above), this bundle is
# what node trusts besides its own (NODE_EXTRA_CA_CERTS below).
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"

tar -C "$rootfs" --numeric-owner -c . |
  podman import --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' - "$image" >/dev/null
echo "$image: Debian bookworm minbase + node $("$node_bin" --version) ($(du -sh "$rootfs" | cut -f1) unpacked)"
