#!/usr/bin/env bash
# A Vulkan driver for ONNX Runtime's webgpu execution provider (Dawn on Vulkan) on a machine
# without a GPU: Mesa's software driver lavapipe, which Dawn accepts from Mesa 25 on, and the
# Vulkan loader. Debian bookworm's own Mesa is 22.3 (Dawn: "No supported adapters"), so
# mesa-vulkan-drivers comes from bookworm-backports, enabled with a sources entry derived from
# the machine's own Debian one (same mirror and keyring, the suite changed). Does nothing when
# Mesa >= 25's driver and the loader are already installed. Needs root (apt-get), as CI runs.
set -euo pipefail

MIN_MESA=25

installed() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
ready() {
  dpkg --compare-versions "$(installed mesa-vulkan-drivers)" ge "$MIN_MESA" &&
    [[ -n "$(installed libvulkan1)" ]]
}

if ready; then
  echo "vulkan: mesa-vulkan-drivers $(installed mesa-vulkan-drivers), libvulkan1 $(installed libvulkan1)"
  exit 0
fi

# shellcheck disable=SC1091
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
debian=/etc/apt/sources.list.d/debian.sources
backports=/etc/apt/sources.list.d/backports.sources
target=()
if [[ -n "$codename" && -f "$debian" ]]; then
  if ! grep -rqs -- "${codename}-backports" /etc/apt/sources.list /etc/apt/sources.list.d; then
    # The stanza (deb822 paragraph) whose Suites has the release itself, with only the suite
    # replaced: Types, URIs, Components and Signed-By stay the machine's.
    awk -v release="$codename" '
      BEGIN { RS = ""; ORS = "\n\n" }
      $0 ~ "(^|\n)Suites:([^\n]* )?" release "( |\n|$)" {
        sub("(^|\n)Suites:[^\n]*", "\nSuites: " release "-backports")
        sub(/^\n/, "")
        print
        exit
      }' "$debian" >"$backports"
    if [[ ! -s "$backports" ]]; then
      rm -f "$backports"
      echo "vulkan: no '$codename' entry in $debian to derive backports from" >&2
      exit 1
    fi
    echo "vulkan: enabled ${codename}-backports ($backports)"
  fi
  target=(-t "${codename}-backports")
fi

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${target[@]}" mesa-vulkan-drivers libvulkan1
if ! ready; then
  echo "vulkan: mesa-vulkan-drivers $(installed mesa-vulkan-drivers) is older than $MIN_MESA;" \
    "webgpu cannot run on lavapipe here" >&2
  exit 1
fi
echo "vulkan: mesa-vulkan-drivers $(installed mesa-vulkan-drivers), libvulkan1 $(installed libvulkan1)"
