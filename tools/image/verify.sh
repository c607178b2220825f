#!/usr/bin/env bash
# Runs the built images the way the chart runs them and checks them from outside
# (docs/kubernetes.md#images): read-only root filesystem, uid 10001, all capabilities dropped,
# /tmp a tmpfs and the model cache a volume, the fixture models mounted read-only.
#   tools/image/verify.sh            (after tools/image/build.sh; same REGISTRY / VERSION)
# 1. gateway + embeddings, chat, moderation (tessera image): one request each through the gateway;
# 2. speech + transcription (tessera-audio image): speech to WAV, that WAV transcribed;
# 3. SIGTERM while requests are in flight, to services (embeddings, speech) and to the gateway
#    (a transcription): the requests still succeed and the containers exit 0 (tini → node
#    drains → exit 0).
# Not part of CI: it needs root podman and a few minutes. Host networking on ports from
# $VERIFY_PORT_BASE (default 38000) keeps it independent of the engine's bridge set-up.
# The node -e programs and JS template strings are single-quoted on purpose:
# shellcheck disable=SC2016
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
# shellcheck disable=SC2054 # the commas are --tmpfs's mount options
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
      "npm ffmpeg binary: $(ls -d node_modules/@ffmpeg-installer/*-* 2>/dev/null || echo none)"
    echo "  Vulkan loader (WebGPU): $(ls /usr/lib/*-linux-gnu/libvulkan.so.1 2>/dev/null || echo none)"
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
node -e 'console.log(JSON.stringify({ model: "tiny-bert", input: Array.from({ length: 512 }, (_, i) => `input ${i} ` + "word ".repeat(40)) }))' >"$work/big.json"
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
if grep -qv '^200 ' "$work"/drain-*.code; then
  head -c 600 "$work"/drain-*.json
  podman logs "$prefix-gateway" 2>&1 | tail -20
  fail "a request in flight failed during the drain"
fi
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

# The services give calls in flight up to 10 s after SIGTERM (GrpcServerHost.close), and the
# random-weight Whisper fixture may take longer than that on one request: the service drain is
# shown with speech (long text, mp3: the service's ffmpeg encodes while the signal arrives), the
# gateway's with a transcription, each signalled once the service's metrics show the work started.
speech_metrics="http://127.0.0.1:$((base + 64))/metrics"
transcription_metrics="http://127.0.0.1:$((base + 65))/metrics"
# metric URL NAME: the sum of the series' values.
metric() { curl -fsS "$1" | awk -v n="$2" '$1 == n || index($1, n "{") == 1 { s += $2 } END { print s + 0 }'; }
# when_above URL NAME VALUE: waits until the metric passes VALUE (30 s).
when_above() {
  for _ in $(seq 300); do
    awk -v a="$(metric "$1" "$2")" -v b="$3" 'BEGIN { exit !(a > b) }' && return 0
    sleep 0.1
  done
  fail "$2 stayed at $3"
}

say "SIGTERM to speech with a speech request in flight"
# 20 sentences: a few seconds of synthesis, well inside the 10 s the service gives calls in
# flight. The same request first, undisturbed: the drained answer must be as long (the voice's
# random durations vary by a few per cent; a stream cut short is far shorter).
node -e 'console.log(JSON.stringify({ model: "tts-1", voice: "echo", response_format: "mp3",
  input: Array.from({ length: 20 }, (_, i) => `Sentence ${i + 1} of a long answer, spoken to the end.`).join(" ") }))' >"$work/long-speech.json"
speech() {
  api -o "$work/$1" -w '%{http_code} %{time_total} %{size_download}\n' \
    "http://127.0.0.1:$gateway_port/v1/audio/speech" -H 'Content-Type: application/json' \
    --data-binary "@$work/long-speech.json"
}
speech whole.mp3 >"$work/whole.code"
echo "undisturbed: HTTP, seconds, bytes: $(cat "$work/whole.code")"
runs="$(metric "$speech_metrics" tessera_speech_voice_runs_total)"
speech drained.mp3 >"$work/drain-s.code" &
when_above "$speech_metrics" tessera_speech_voice_runs_total "$runs"
podman kill --signal TERM "$prefix-speech" >/dev/null
echo "SIGTERM sent once the first voice run was counted"
wait
echo "in flight: HTTP, seconds, bytes: $(cat "$work/drain-s.code")"
read -r status _ bytes <"$work/drain-s.code"
read -r _ _ whole <"$work/whole.code"
if [[ "$status" != 200 ]] || ((bytes * 10 < whole * 9)); then
  fail "the in-flight speech answer was cut short"
fi
expect_exit0 speech
podman logs "$prefix-speech" 2>&1 | grep -i 'drain' || true

say "SIGTERM to the gateway with a transcription in flight"
seconds="$(metric "$transcription_metrics" tessera_transcription_audio_seconds_total)"
api -o "$work/drain-t.json" -w '%{http_code} %{time_total}\n' \
  "http://127.0.0.1:$gateway_port/v1/audio/transcriptions" -F model=whisper-1 \
  -F "file=@$work/speech.wav;type=audio/wav" >"$work/drain-t.code" &
when_above "$transcription_metrics" tessera_transcription_audio_seconds_total "$seconds"
podman kill --signal TERM "$prefix-gateway" >/dev/null
echo "SIGTERM sent once the service had decoded the upload"
wait
echo "request in flight: HTTP, seconds: $(cat "$work/drain-t.code")"
[[ "$(cut -d' ' -f1 "$work/drain-t.code")" == 200 ]] || { cat "$work/drain-t.json"; fail "the in-flight transcription failed"; }
check "$work/drain-t.json" '`transcription: ${JSON.stringify(r.usage)}`'
expect_exit0 gateway
podman kill --signal TERM "$prefix-transcription" >/dev/null
expect_exit0 transcription

say "CUDA asked for on a CPU image: a warning, then CPU"
# What a -cuda image does on a node without a usable GPU (the provider libraries cannot load):
# the same fallback, shown here where the CUDA provider is absent altogether.
cat >"$work/models.cuda.yaml" <<'MODELS'
models:
  - id: tiny-bert
    capability: embeddings
    source: /app/test/fixtures/models/tiny-bert
    options:
      execution_providers: [cuda, cpu]
MODELS
chmod 0644 "$work/models.cuda.yaml"
start embeddings-cuda "$image" embeddings $((base + 56)) $((base + 66)) \
  -v "$work/models.cuda.yaml:/etc/tessera/models.yaml:ro" -e TESSERA_MODELS_FILE=/etc/tessera/models.yaml
wait_url "http://127.0.0.1:$((base + 66))/readyz" embeddings-cuda
podman logs "$prefix-embeddings-cuda" 2>&1 | grep -m1 "execution provider 'cuda'" | cut -c1-400 ||
  fail "no fallback warning"
podman kill --signal TERM "$prefix-embeddings-cuda" >/dev/null
expect_exit0 embeddings-cuda

say "OK"
