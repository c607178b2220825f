#!/usr/bin/env bash
# A real Kubernetes control plane on loopback for the cluster tests: etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler and kwok (simulated nodes: pods are scheduled by the
# real scheduler and marked Running by kwok, but no container runs). Binaries come from
# tools/k8s/go-tool.sh; recipe and limits: docs/kubernetes.md.
#
#   bash tools/k8s/control-plane/run.sh -- CMD ARGS...   # start, run CMD with KUBECONFIG set, stop
#   bash tools/k8s/control-plane/run.sh                  # start, print "ready <kubeconfig>", stay
#                                                         # up until SIGTERM/SIGINT or the parent exits
#
# Every port is a free one picked at start, state lives in a temporary directory (removed on
# exit unless TESSERA_CP_KEEP=1; its logs/ are printed when the start fails), and every process
# is stopped on exit, whatever the cause.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gotool="$here/../go-tool.sh"
start_timeout="${TESSERA_CP_START_TIMEOUT:-90}"

log() { echo "control-plane: $*" >&2; }

bash "$gotool" ensure etcd kube-apiserver kube-controller-manager kube-scheduler kwok
bin="$(bash "$gotool" bin)"

state="$(mktemp -d "${TMPDIR:-/tmp}/tessera-cp.XXXXXX")"
mkdir -p "$state/pki" "$state/logs"
pids=()
parent=$PPID

stop() {
  local rc=$? pid i
  trap - EXIT INT TERM
  # Reverse start order: kwok and the controllers before the API server, etcd last.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ "${TESSERA_CP_KEEP:-}" == 1 ]]; then log "state kept in $state"; else rm -rf "$state"; fi
  exit "$rc"
}
trap stop EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# A port nothing listens on (connect refused). Another process could take it before we bind;
# the component then fails to start and the run fails loudly rather than talking to a stranger.
taken=" "
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    [[ "$taken" == *" $p "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      taken+="$p "
      echo "$p"
      return
    fi
  done
}

# --- certificates: a CA, the API server's serving cert, an admin client, the SA key pair ---
pki="$state/pki"
ossl() { openssl "$@" >/dev/null 2>&1; }
ossl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=tessera-test-ca" \
  -keyout "$pki/ca.key" -out "$pki/ca.crt"
cat >"$pki/apiserver.ext" <<'EOF'
subjectAltName = IP:127.0.0.1, IP:10.0.0.1, DNS:localhost, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc
extendedKeyUsage = serverAuth
EOF
sign() { # name subject [extfile]
  ossl req -newkey rsa:2048 -nodes -subj "$2" -keyout "$pki/$1.key" -out "$pki/$1.csr"
  ossl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial \
    -days 2 -out "$pki/$1.crt" ${3:+-extfile "$3"}
}
sign apiserver "/CN=kube-apiserver" "$pki/apiserver.ext"
sign admin "/O=system:masters/CN=tessera-test-admin"
ossl genrsa -out "$pki/sa.key" 2048
ossl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub"

etcd_port="$(free_port)"
etcd_peer_port="$(free_port)"
api_port="$(free_port)"
server="https://127.0.0.1:$api_port"
kubeconfig="$state/kubeconfig"
cat >"$kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: tessera-test
    cluster: {server: "$server", certificate-authority: "$pki/ca.crt"}
users:
  - name: admin
    user: {client-certificate: "$pki/admin.crt", client-key: "$pki/admin.key"}
contexts:
  - name: tessera-test
    context: {cluster: tessera-test, user: admin, namespace: default}
current-context: tessera-test
EOF

# kwok's own "fast" stages (from its module at the built version): nodes become Ready and keep
# a lease, pods become Running/Ready, Job pods complete, deleted pods go away; claims of its
# StorageClass (created below, the default one) get a volume and are Bound.
kwok_pin="$(bash "$gotool" pin kwok)"
kwok_dir="$(go mod download -json "sigs.k8s.io/kwok@${kwok_pin##*@}" |
  sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
stages="$kwok_dir/kustomize/stage"
for f in node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease \
  pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete \
  volume/fast/pvc-provision volume/fast/pv-bind volume/fast/pvc-delete volume/fast/pv-delete; do
  cat "$stages/$f.yaml"
  echo "---"
done >"$state/kwok-stages.yaml"

started=$SECONDS
spawn() { # name args...
  local name="$1"
  shift
  "$bin/$name" "$@" >"$state/logs/$name.log" 2>&1 &
  pids+=($!)
}
alive() {
  local pid
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done
}
api() { # path [curl args]: a request with the admin identity
  local path="$1"
  shift
  curl -sf --max-time 5 --cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" \
    "$@" "$server$path"
}
wait_for() { # what command...
  local what="$1"
  shift
  until "$@" >/dev/null 2>&1; do
    if ! alive || ((SECONDS - started > start_timeout)); then
      log "gave up waiting for $what after $((SECONDS - started)) s; logs:"
      tail -n 30 "$state"/logs/*.log >&2
      exit 1
    fi
    sleep 0.2
  done
}

spawn etcd --name tessera-test --data-dir "$state/etcd" --unsafe-no-fsync \
  --listen-client-urls "http://127.0.0.1:$etcd_port" \
  --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" \
  --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
  --initial-cluster "tessera-test=http://127.0.0.1:$etcd_peer_port"
spawn kube-apiserver --etcd-servers "http://127.0.0.1:$etcd_port" \
  --bind-address 127.0.0.1 --secure-port "$api_port" --advertise-address 127.0.0.1 \
  --endpoint-reconciler-type none --service-cluster-ip-range 10.0.0.0/24 \
  --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --client-ca-file "$pki/ca.crt" \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --authorization-mode RBAC --allow-privileged=true
wait_for "the API server" api /readyz
# The controller-manager is what turns Deployments into ReplicaSets and Pods (and creates the
# default ServiceAccount); the scheduler binds pods to nodes. Neither serves HTTPS here.
client=(--kubeconfig "$kubeconfig" --authentication-kubeconfig "$kubeconfig"
  --authorization-kubeconfig "$kubeconfig" --leader-elect=false --bind-address 127.0.0.1
  --secure-port 0)
spawn kube-controller-manager "${client[@]}" --controllers '*' \
  --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt"
spawn kube-scheduler "${client[@]}"
spawn kwok --kubeconfig "$kubeconfig" --config "$state/kwok-stages.yaml" \
  --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
  --manage-nodes-with-label-selector= --cidr 10.244.0.0/16 --node-ip 10.0.0.1
wait_for "the default ServiceAccount" api /api/v1/namespaces/default/serviceaccounts/default
api /apis/storage.k8s.io/v1/storageclasses -o /dev/null -H 'Content-Type: application/yaml' \
  --data-binary "@$stages/volume/fast/storage-class.yaml" || {
  log "could not create kwok's StorageClass"
  exit 1
}
log "up in $((SECONDS - started)) s at $server (state $state)"

if [[ "${1:-}" == "--" ]]; then
  shift
  rc=0
  KUBECONFIG="$kubeconfig" "$@" || rc=$?
  exit "$rc"
fi

echo "ready $kubeconfig"
# Serve until told to stop, a component dies, or whoever started us is gone (no orphans even
# when the parent is killed without a chance to stop us).
while kill -0 "$parent" 2>/dev/null; do
  if ! alive; then
    log "a component exited; logs:"
    tail -n 30 "$state"/logs/*.log >&2
    exit 1
  fi
  sleep 1 &
  wait $! || true
done
