#!/usr/bin/env bash
# The oldest Node.js the package accepts (`engines`: >= 20, what these machines have) still
# builds and serves: `npm run build`, then `npm run start:fixtures` (what a fresh clone runs
# offline), one models list, one embeddings and one chat completion through the real gateway and
# services, and a clean stop. The whole suite runs on the LTS (tools/ci/node-dist.sh); this keeps
# newer-only APIs from sneaking in, in about a minute.
#
#   bash tools/ci/node-floor.sh [node]   # `node`: a Node 20 binary (default: the first on PATH);
#                                        # another version is replaced by node-dist.sh's floor pin
#
# node_modules installed by another Node serves this one: every native addon in the lockfile
# (onnxruntime-node, sharp, node-llama-cpp, the resolver and watcher bindings) is a prebuilt
# N-API binary, which does not depend on Node's ABI; nothing is compiled per Node version.
set -euo pipefail
cd "$(dirname "$0")/../.."

node_bin="${1:-$(command -v node)}"
if [[ "$("$node_bin" --version 2>/dev/null)" != v20.* ]]; then
  node_bin="$(bash tools/ci/node-dist.sh bin "$(bash tools/ci/node-dist.sh pin floor)")/node"
fi
export PATH="$(dirname "$node_bin"):$PATH"
echo "floor: node $(node --version), npm $(npm --version)"

npm run build --silent

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port="$(free_port)"
key="tsk-floor-$RANDOM$RANDOM"
log="$(mktemp)"
origin="http://127.0.0.1:$port"

# Its own session (process group), so the stop reaches npm and the launcher; the launcher stops
# the services and the gateway it started, as on Ctrl-C.
PORT="$port" HOST=127.0.0.1 TESSERA_API_KEYS="$key" setsid npm run start:fixtures >"$log" 2>&1 &
leader=$!
stopped=false
running() { # the launcher's npm has not exited (an exited one stays a zombie until waited for)
  local state
  state="$(ps -o stat= -p "$leader" 2>/dev/null || true)"
  [[ -n "$state" && "$state" != Z* ]]
}
stop() { # SIGTERM, and SIGKILL for whatever is left after 60 s; true when it stopped in time
  $stopped && return 0
  stopped=true
  kill -TERM -- "-$leader" 2>/dev/null || true
  for _ in $(seq 60); do
    if ! running; then
      wait "$leader" 2>/dev/null || true
      return 0
    fi
    sleep 1
  done
  kill -KILL -- "-$leader" 2>/dev/null || true
  return 1
}
trap 'stop || true; rm -f "$log"' EXIT
fail() {
  echo "floor: $1; the launcher's output:" >&2
  cat "$log" >&2
  exit 1
}

# Five services load and warm their models first: minutes on a busy two-core machine.
for _ in $(seq 360); do
  grep -q "Tessera is serving the OpenAI API at $origin/v1" "$log" && break
  running || fail "the launcher exited"
  sleep 1
done
grep -q "Tessera is serving" "$log" || fail "not serving after 360 s"
# On an end-of-life Node the launcher says so once (tools/stack/node-release.schedule.ts).
if [[ "$(node --version)" == v20.* ]]; then
  grep -q "reached its end of life" "$log" || fail "no end-of-life warning on $(node --version)"
fi

request() { # method path [json body] → the body; fails on a status other than 200
  local args=(-sS --max-time 60 -w '\n%{http_code}' -X "$1" "$origin$2"
    -H "authorization: Bearer $key")
  [[ $# -ge 3 ]] && args+=(-H 'content-type: application/json' --data "$3")
  local out status
  out="$(curl "${args[@]}")" || fail "$1 $2: curl failed"
  status="${out##*$'\n'}"
  [[ "$status" == 200 ]] || fail "$1 $2 answered $status: ${out%$'\n'*}"
  printf '%s' "${out%$'\n'*}"
}
check() { # what, json, a JavaScript condition on `r`
  node -e "const r = JSON.parse(process.argv[1]); if (!($3)) process.exit(1);" "$2" ||
    fail "$1: unexpected answer $2"
}

models="$(request GET /v1/models)"
check "GET /v1/models" "$models" 'r.object === "list" && r.data.some((m) => m.id === "tiny-bert")'
embeddings="$(request POST /v1/embeddings '{"model":"tiny-bert","input":"a floor check"}')"
check "POST /v1/embeddings" "$embeddings" \
  'r.data.length === 1 && r.data[0].embedding.length > 0 && r.usage.prompt_tokens > 0'
chat="$(request POST /v1/chat/completions \
  '{"model":"tiny-llama","messages":[{"role":"user","content":"Hi"}],"max_tokens":4}')"
check "POST /v1/chat/completions" "$chat" \
  'r.choices[0].message.role === "assistant" && r.usage.completion_tokens > 0'

stop || fail "the launcher did not stop within 60 s of SIGTERM"
echo "floor: node $(node --version) builds, starts, answers models, embeddings and chat, stops"
