#!/usr/bin/env bash
# Schemathesis (PyPI) for the reliability suite's schema fuzzing, in a small venv of its own
# outside the clone (like tools/k8s/chart-validate.sh's), made once and stamped with its pin so
# a changed pin rebuilds it. Cache: TESSERA_TOOLS_CACHE (default ~/.cache/tessera-tools)/venv-schemathesis.
#
#   bash tools/reliability/schemathesis.sh ensure     # make the venv if missing or stale
#   bash tools/reliability/schemathesis.sh path       # print the st executable's path (after ensure)
#   bash tools/reliability/schemathesis.sh run ARGS   # st ARGS (after ensure)
set -euo pipefail

cache="${TESSERA_TOOLS_CACHE:-$HOME/.cache/tessera-tools}"
venv="$cache/venv-schemathesis"
PIN="schemathesis==4.32.5"

ensure() {
  [[ -x "$venv/bin/st" && "$(cat "$venv/.pin" 2>/dev/null)" == "$PIN" ]] && return
  command -v python3 >/dev/null 2>&1 || { echo "schemathesis: python3 is required" >&2; exit 1; }
  echo "schemathesis: installing $PIN into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$PIN"
  echo "$PIN" >"$venv/.pin"
}

case "${1:-}" in
  ensure) ensure ;;
  path) echo "$venv/bin/st" ;;
  run)
    shift
    ensure
    exec "$venv/bin/st" run "$@"
    ;;
  *) sed -n '2,8p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
