#!/usr/bin/env bash
# Runs the built images the way the chart runs them and checks them from outside
# (docs/kubernetes.md#images): read-only root filesystem, uid 10001, all capabilities dropped,
# /tmp a tmpfs and the model cache a volume, the fixture models mounted read-only.
#   tools/image/verify.sh            (after tools/image/build.sh; same REGISTRY / VERSION)
# 1. gateway + embeddings, chat, moderation (tessera image): one request each through the gateway;
# 2. speech + transcription (tessera-audio image): speech to WAV, that WAV transcribed;
# 3. SIGTERM while a request is in flight, to a service and to the gateway: the request still
#    succeeds and the container exits 0 (tini → node drains → exit).
# Not part of CI: it needs root podman and a few minutes. Host networking on ports from
# $VERIFY_PORT_BASE (default 38000) keeps it independent of the engine's bridge set-up.
set -euo pipefail
cd "$(dirname "$0")/../.."
registry="${REGISTRY:-ghcr.io/tessera-ai}"
version="${VERSION:-$(node -p 'require("./package.json").version')}"
image="$registry/tessera:$version${SUFFIX:-}"
audio_image="$registry/tessera-audio:$version${SUFFIX:-}"
base="${VERIFY_PORT_BASE:-38000}"
gateway_port=$((base + 80))
key=verify-key
prefix=tessera-verify
volume=$prefix-cache
work="$(mktemp -d)"

containers=()
cleanup() {
  for c in "${containers[@]}"; do podman rm -f -t 0 "$c" >/dev/null 2>&1 || true; done
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
say() { printf '\n== %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# What the chart's securityContext asks for; no tmpfs of podman's own (--read-only-tmpfs=false):
# /tmp is the only writable path besides the cache volume.
secure=(
  --read-only --read-only-tmpfs=false --tmpfs /tmp:rw,nosuid,nodev,mode=1777,size=512m
  --user 10001:10001 --cap-drop ALL --security-opt no-new-privileges
  --network host -v "$volume:/var/cache/tessera/models"
  -v "$PWD/test/fixtures/models:/app/test/fixtures/models:ro"
  -e TESSERA_MODELS_FILE=config/models.fixtures.yaml
)

# start NAME IMAGE COMPONENT GRPC_PORT HTTP_PORT [env…]: a service container, detached.
start() {
  local name="$prefix-$1" img="$2" component="$3" grpc="$4" http="$5"
  shift 5
  podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
  containers+=("$name")
  podman run -d --name "$name" "${secure[@]}" -e HOST=127.0.0.1 -e "GRPC_PORT=$grpc" \
    -e "HTTP_PORT=$http" "$@" "$img" node "dist/apps/$component/src/main.js" >/dev/null
}
start_gateway() {
  podman rm -f -t 0 "$prefix-gateway" >/dev/null 2>&1 || true
  containers+=("$prefix-gateway")
  podman run -d --name "$prefix-gateway" "${secure[@]}" -e HOST=127.0.0.1 \
    -e "PORT=$gateway_port" -e "TESSERA_API_KEYS=$key" "$@" "$image" >/dev/null
}
# wait_url URL NAME: until it answers 200 (60 s), else the container's log.
wait_url() {
  for _ in $(seq 120); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    [[ "$(podman inspect -f '{{.State.Running}}' "$prefix-$2")" == true ]] || break
    sleep 0.5
  done
  podman logs "$prefix-$2" >&2
  fail "$2 did not answer $1"
}
api() { curl -sS -H "Authorization: Bearer $key" "$@"; }
# expect_exit NAME: the container's exit status once stopped must be 0.
expect_exit0() {
  local status
  status="$(podman wait "$prefix-$1")"
  echo "$1 exited with status $status"
  [[ "$status" == 0 ]] || { podman logs "$prefix-$1" >&2; fail "$1 exited with $status"; }
}

say "image facts"
for img in "$image" "$audio_image"; do
  podman image inspect -f '{{.Config.User}} {{.Config.WorkingDir}} {{json .Config.Entrypoint}} {{json .Config.Cmd}}' "$img"
  podman run --rm --network host --entrypoint sh "${secure[@]:0:6}" "$img" -c '
    echo "  user $(id -u):$(id -g), ffmpeg: $(command -v ffmpeg || echo none)," \
      "npm ffmpeg: $(ls node_modules/@ffmpeg-installer | tr "\n" " ")"
    touch /app/probe 2>/dev/null && echo "  /app is writable" || echo "  /app is read-only"
    touch /tmp/probe && echo "  /tmp is writable"'
done

say "gateway + embeddings, chat, moderation ($image)"
start embeddings "$image" embeddings $((base + 51)) $((base + 61))
start chat "$image" chat $((base + 52)) $((base + 62))
start moderation "$image" moderation $((base + 53)) $((base + 63))
for c in embeddings:61 chat:62 moderation:63; do
  wait_url "http://127.0.0.1:$((base + ${c#*:}))/readyz" "${c%:*}"
done
start_gateway -e "TESSERA_EMBEDDINGS_ADDR=127.0.0.1:$((base + 51))" \
  -e "TESSERA_CHAT_ADDR=127.0.0.1:$((base + 52))" \
  -e "TESSERA_MODERATION_ADDR=127.0.0.1:$((base + 53))"
wait_url "http://127.0.0.1:$gateway_port/healthz" gateway
post() { api "http://127.0.0.1:$gateway_port/v1/$1" -H 'Content-Type: application/json' -d "$2"; }
# check FILE JS-EXPRESSION-ON-r: prints it, fails when it throws.
check() { node -e "const r = require(process.argv[1]); console.log($2);" "$1" || { head -c 400 "$1"; fail "$1"; }; }
post embeddings '{"model":"text-embedding-3-small","input":["a read-only container","tini as PID 1"]}' >"$work/embeddings.json"
check "$work/embeddings.json" '`embeddings: ${r.data.length} vectors of ${r.data[0].embedding.length} dims, model ${r.model}`'
post chat/completions '{"model":"gpt-4o-mini","max_tokens":8,"messages":[{"role":"user","content":"Say hello."}]}' >"$work/chat.json"
check "$work/chat.json" '`chat: finish_reason ${r.choices[0].finish_reason}, usage ${JSON.stringify(r.usage)}`'
post moderations '{"model":"omni-moderation-latest","input":["hello","you are awful"]}' >"$work/moderation.json"
check "$work/moderation.json" '`moderation: ${r.results.length} results, ${Object.keys(r.results[0].category_scores).length} categories`'
for c in chat moderation; do podman kill --signal TERM "$prefix-$c" >/dev/null; expect_exit0 "$c"; done

say "SIGTERM to embeddings with requests in flight"
# Many inputs, several requests: the service is busy when the signal comes.
node -e 'console.log(JSON.stringify({ model: "tiny-bert", input: Array.from({ length: 2048 }, (_, i) => `input ${i} ` + "word ".repeat(40)) }))' >"$work/big.json"
for i in 1 2 3 4; do
  api -o "$work/drain-$i.json" -w '%{http_code} %{time_total}\n' \
    "http://127.0.0.1:$gateway_port/v1/embeddings" -H 'Content-Type: application/json' \
    --data-binary "@$work/big.json" >"$work/drain-$i.code" &
done
sleep 0.5
podman kill --signal TERM "$prefix-embeddings" >/dev/null
echo "SIGTERM sent 0.5 s after the requests"
wait
for i in 1 2 3 4; do echo "request $i: HTTP, seconds: $(cat "$work/drain-$i.code")"; done
expect_exit0 embeddings
podman logs "$prefix-embeddings" 2>&1 | grep -i 'drain' || true
grep -qv '^200 ' "$work"/drain-*.code && fail "a request in flight failed during the drain"
check "$work/drain-1.json" '`request 1: ${r.data.length} vectors`'

say "audio: speech + transcription ($audio_image)"
podman kill --signal TERM "$prefix-gateway" >/dev/null
expect_exit0 gateway
start speech "$audio_image" speech $((base + 54)) $((base + 64))
start transcription "$audio_image" transcription $((base + 55)) $((base + 65))
wait_url "http://127.0.0.1:$((base + 64))/readyz" speech
wait_url "http://127.0.0.1:$((base + 65))/readyz" transcription
start_gateway -e "TESSERA_SPEECH_ADDR=127.0.0.1:$((base + 54))" \
  -e "TESSERA_TRANSCRIPTION_ADDR=127.0.0.1:$((base + 55))"
wait_url "http://127.0.0.1:$gateway_port/healthz" gateway
api -o "$work/speech.wav" -w 'speech: HTTP %{http_code}, %{size_download} bytes of %{content_type}\n' \
  "http://127.0.0.1:$gateway_port/v1/audio/speech" -H 'Content-Type: application/json' \
  -d '{"model":"tts-1","voice":"alloy","response_format":"wav","input":"The image runs speech and transcription with its own ffmpeg, on a read-only root file system."}'
api -o "$work/transcription.json" -w 'transcription: HTTP %{http_code}\n' \
  "http://127.0.0.1:$gateway_port/v1/audio/transcriptions" -F model=whisper-1 -F language=en \
  -F response_format=verbose_json -F "file=@$work/speech.wav;type=audio/wav"
check "$work/transcription.json" '`transcription: ${r.duration.toFixed(2)} s of audio, language ${r.language}, ${r.segments.length} segments`'

say "SIGTERM to the gateway and to transcription with a transcription in flight"
api -o "$work/drain-t.json" -w '%{http_code} %{time_total}\n' \
  "http://127.0.0.1:$gateway_port/v1/audio/transcriptions" -F model=whisper-1 \
  -F "file=@$work/speech.wav;type=audio/wav" >"$work/drain-t.code" &
sleep 1
podman kill --signal TERM "$prefix-gateway" >/dev/null
podman kill --signal TERM "$prefix-transcription" >/dev/null
echo "SIGTERM sent to both 1 s after the request"
wait
echo "request in flight: HTTP, seconds: $(cat "$work/drain-t.code")"
[[ "$(cut -d' ' -f1 "$work/drain-t.code")" == 200 ]] || { cat "$work/drain-t.json"; fail "the in-flight transcription failed"; }
expect_exit0 gateway
expect_exit0 transcription
podman kill --signal TERM "$prefix-speech" >/dev/null
expect_exit0 speech

say "OK"
