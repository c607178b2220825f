#!/usr/bin/env bash
# Validates rendered Kubernetes objects offline against the API's own OpenAPI schemas, strictly
# (an unknown field is an error, as `kubectl apply --validate=strict` makes it): PyPI's
# kubernetes-validate, which ships the schemas of every Kubernetes release. It lives in a small
# venv of its own outside the clone (not tools/fixtures' venv, which is large and rebuilt for
# other reasons), made once and stamped with its pin.
#
#   bash tools/k8s/chart-validate.sh ensure            # make the venv if missing or stale
#   bash tools/k8s/chart-validate.sh check FILE...     # validate; exit 1 if any object is invalid
#
# Custom resources (the ServiceMonitor) have no schema there: they are reported as warnings
# ("Couldn't find schema"), which the caller judges. Cache: TESSERA_TOOLS_CACHE (default
# ~/.cache/tessera-tools)/venv-k8s.
set -euo pipefail

cache="${TESSERA_TOOLS_CACHE:-$HOME/.cache/tessera-tools}"
venv="$cache/venv-k8s"
PIN="kubernetes-validate==1.37.0"
# The API version CI's control plane runs (shared/docs/CONTROL-PLANE.md).
KUBERNETES_VERSION="1.36.0"

ensure() {
  [[ -x "$venv/bin/kubernetes-validate" && "$(cat "$venv/.pin" 2>/dev/null)" == "$PIN" ]] && return
  command -v python3 >/dev/null 2>&1 || { echo "chart-validate: python3 is required" >&2; exit 1; }
  echo "chart-validate: installing $PIN into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$PIN"
  echo "$PIN" >"$venv/.pin"
}

case "${1:-}" in
  ensure) ensure ;;
  check)
    shift
    ensure
    exec "$venv/bin/kubernetes-validate" --strict -k "$KUBERNETES_VERSION" "$@"
    ;;
  *) sed -n '2,13p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
