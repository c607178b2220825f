#!/usr/bin/env bash
# Builds Tessera's phonemiser: espeak-ng compiled to WebAssembly (WASI) plus the compiled
# espeak-ng data it reads, into libs/tts/espeak/. The outputs are committed, so `npm ci` alone is
# enough to run Tessera; rerun this only to change the espeak-ng version or the languages.
#
#   bash tools/espeak-wasm/build.sh            # needs network (crates.io, PyPI) the first time
#
# Sources, all from package registries (no GitHub downloads here):
#   - espeak-ng 1.52.0.1: the C sources as vendored in the crates.io crate espeak-rs-sys
#     (pinned version and sha256 below);
#   - the compiler: zig (clang + wasi-libc in one PyPI wheel, `ziglang`), which builds both the
#     native espeak-ng used to compile the data and the wasm32-wasi module.
#
# One deliberate change to espeak-ng's phoneme table (phsource/phonemes): the crate's tree hides
# the linking "j" (phoneme ';') in IPA output after an [i] vowel ("ipa NULL"). piper-tts 1.8.0,
# whose phonemes our voices were trained on and which the extended suite compares against, was
# built from upstream espeak-ng 212928b (2025-03-22), which shows it as "ʲ" ("θɹˈiːʲ ˈɛɡz").
# Removing that block restores upstream's output; the patch is applied below and checked.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/libs/tts/espeak"
cache="${TESSERA_ESPEAK_BUILD_CACHE:-$HOME/.cache/tessera-espeak}"
# Languages whose dictionaries are compiled in (espeak-ng dictionary names). Piper voices name
# their espeak voice in .onnx.json (`espeak.voice`, e.g. en-us): its language must be listed.
languages=(${TESSERA_ESPEAK_LANGUAGES:-en})

crate_version=0.2.0
crate_sha256=2d45d148019084e930df6cc3964a58c4c211342451ec5d3c328d8a6cc6b3464d
zig_version=0.17.1

mkdir -p "$cache"
crate="$cache/espeak-rs-sys-$crate_version.crate"
if [[ ! -f "$crate" ]]; then
  curl -fsSL -o "$crate.part" "https://static.crates.io/crates/espeak-rs-sys/espeak-rs-sys-$crate_version.crate"
  mv "$crate.part" "$crate"
fi
if [[ -n "$crate_sha256" ]]; then
  echo "$crate_sha256  $crate" | sha256sum -c --quiet
fi

zig="$cache/zig-$zig_version/ziglang/zig"
if [[ ! -x "$zig" ]]; then
  python3 -m pip download --quiet --no-deps --dest "$cache/wheels" "ziglang==$zig_version"
  rm -rf "$cache/zig-$zig_version"
  mkdir -p "$cache/zig-$zig_version"
  python3 -m zipfile -e "$cache"/wheels/ziglang-"$zig_version"-*manylinux*x86_64*.whl "$cache/zig-$zig_version"
  chmod +x "$zig"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$crate" -C "$work"
src="$work/espeak-rs-sys-$crate_version/espeak-ng"

# The phoneme-table patch (see the header).
python3 - "$src/phsource/phonemes" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
block = "  IF prevPh(#i) THEN\n    ipa NULL   // linking after i vowel, don't show in ipa\n  ENDIF\n"
if text.count(block) != 1:
    sys.exit("phsource/phonemes: the linking-j block to remove was not found exactly once")
open(path, "w", encoding="utf-8").write(text.replace(block, "", 1))
PY

# config.h as espeak-ng's CMake would write it for this build: synchronous, no audio output, no
# sonic/mbrola/klatt/speech-player (phonemes only; no sound is ever made).
# HAVE_MKSTEMP: WASI has no mkstemp (only used for sound icons, never here).
write_config() {
  mkdir -p "$1"
  cat >"$1/config.h" <<CONFIG
#define HAVE_MKSTEMP $2
#define USE_ASYNC 0
#define USE_KLATT 0
#define USE_LIBPCAUDIO 0
#define USE_LIBSONIC 0
#define USE_MBROLA 0
#define USE_SPEECHPLAYER 0
#define PACKAGE_VERSION "1.52.0.1"
CONFIG
}
write_config "$work/config-native" 1
write_config "$work/config-wasm" 0

lib_sources=(common mnemonics error ieee80 compiledata compiledict dictionary encoding intonation
  langopts numbers phoneme phonemelist readclause setlengths soundicon spect ssml synthdata
  synthesize tr_languages translate translateword voices wavegen speech espeak_api)
sources=()
for name in "${lib_sources[@]}"; do sources+=("$src/src/libespeak-ng/$name.c"); done
for name in case categories ctype proplist scripts tostring; do sources+=("$src/src/ucd-tools/src/$name.c"); done
cflags=(-O2 -std=gnu99 -fno-exceptions -fwrapv -w -DLIBESPEAK_NG_EXPORT=1
  -DPATH_ESPEAK_DATA='"/espeak"'
  -I"$src/src/include" -I"$src/src/libespeak-ng" -I"$src/src/ucd-tools/src/include")

# 1. Native espeak-ng, only to compile the data.
"$zig" cc "${cflags[@]}" -I"$work/config-native" -o "$work/espeak-ng" "${sources[@]}" "$src/src/espeak-ng.c" -lm
data_root="$work/data"
mkdir -p "$data_root/espeak-ng-data/voices" "$data_root/dictsource"
cp -r "$src/espeak-ng-data/lang" "$data_root/espeak-ng-data/"
cp -r "$src/espeak-ng-data/voices/!v" "$data_root/espeak-ng-data/voices/"
cp -r "$src/phsource" "$data_root/"
(cd "$data_root/phsource" && ESPEAK_DATA_PATH="$data_root" "$work/espeak-ng" --compile-intonations >/dev/null)
(cd "$data_root/phsource" && ESPEAK_DATA_PATH="$data_root" "$work/espeak-ng" --compile-phonemes >/dev/null)
for language in "${languages[@]}"; do
  cp "$src/dictsource/${language}_"* "$data_root/dictsource/"
  if [[ -f "$src/dictsource/extra/${language}_listx" ]]; then
    cp "$src/dictsource/extra/${language}_listx" "$data_root/dictsource/"
  fi
  (cd "$data_root/dictsource" && ESPEAK_DATA_PATH="$data_root" "$work/espeak-ng" --compile="$language" >/dev/null 2>&1)
done

# 2. The WebAssembly module: the library plus Tessera's shim (tessera_espeak.c), WASI so that
#    espeak-ng's own file reading works against a preopened data directory.
"$zig" cc "${cflags[@]}" -I"$work/config-wasm" -target wasm32-wasi -mexec-model=reactor -Wl,--export=malloc \
  -o "$work/espeak-ng.wasm" "${sources[@]}" "$here/tessera_espeak.c"

rm -rf "$out"
mkdir -p "$out"
cp "$work/espeak-ng.wasm" "$out/"
cp -r "$data_root/espeak-ng-data" "$out/"
rm -f "$out/espeak-ng-data/phondata-manifest"
cat >"$out/VERSION" <<VERSION
espeak-ng 1.52.0.1 from crates.io espeak-rs-sys $crate_version, built with zig $zig_version by
tools/espeak-wasm/build.sh (phsource linking-j patch applied). Languages: ${languages[*]}.
espeak-ng is GPL-3.0-or-later: see tools/espeak-wasm/README.md.
VERSION
ls -la "$out" "$out/espeak-ng-data"
