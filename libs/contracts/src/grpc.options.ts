// The one place that says how the contracts are loaded and how channels behave, shared by every
// client (gateway) and server (capability services) so both sides always agree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChannelOptions } from '@grpc/grpc-js';
import type { Options } from '@grpc/proto-loader';
import { CAPABILITIES, qualifiedServiceName } from './capability';

export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

/**
 * Finds `proto/` by walking up from this file: the same code runs from `libs/…/src` (ts-jest),
 * from `dist/libs/…/src` (built) and from an image where both sit under the app root.
 * `TESSERA_PROTO_DIR` overrides it.
 */
export function protoRoot(): string {
  const fromEnv = process.env.TESSERA_PROTO_DIR;
  if (fromEnv) return fromEnv;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'proto');
    if (fs.existsSync(path.join(candidate, 'tessera', 'v1', 'common.proto'))) return candidate;
    if (path.dirname(dir) === dir) {
      throw new Error(`proto/tessera/v1 not found above ${__dirname}; set TESSERA_PROTO_DIR`);
    }
  }
}

// Transcription uploads stream in chunks; a chat request carries its images' bytes (48 MiB at
// most, the gateway's MAX_IMAGE_BYTES_PER_REQUEST) beside its text. The limits are explicit so
// that a change of default never surprises us.
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Server side: keepalive so idle connections from the gateway are noticed when peers vanish. */
export const SERVER_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
};

/**
 * Client side: balance per call across every address DNS returns (headless Services in
 * Kubernetes), because one long-lived HTTP/2 connection would pin all calls to one pod.
 * Reconnects to a lost upstream are tried at least every second: grpc-js's default backoff
 * (1 s growing ×1.6 up to 120 s) left the gateway answering 503 for ~9 s after a restarted
 * service was ready again. A refused connection to loopback or a pod IP costs next to nothing.
 * A capability call answered UNAVAILABLE before any answer came (a replica that is draining or
 * still loading refuses calls so; or none was reachable) is retried, twice at most, by grpc-js
 * on the next address: a draining replica keeps its connections open until its own calls end
 * (grpc.server-host.ts), so the retry is what moves new calls to the other replicas. grpc-js
 * never retries a call once answer messages came, nor one whose request outgrew its retry
 * buffer (256 KiB).
 * A ping every 5 s, answered within 5 s, tells a replica that stopped answering (a frozen process,
 * a lost node: its connection stays open) from a busy one: its connection is dropped, calls still
 * waiting for their first answer are retried on another replica, and the channel sends no more
 * calls there until it connects again. A live service answers pings from its event loop, which
 * never runs model work.
 */
export const CLIENT_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.keepalive_time_ms': 5_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.dns_min_time_between_resolutions_ms': 5_000,
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 1_000,
  'grpc.service_config': JSON.stringify({
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: [
      {
        name: CAPABILITIES.map((capability) => ({ service: qualifiedServiceName(capability) })),
        retryPolicy: {
          maxAttempts: 3,
          initialBackoff: '0.01s',
          maxBackoff: '0.1s',
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ],
  }),
};

/** `host:port` → `dns:///host:port`, so grpc-js resolves every address and balances over them. */
export function grpcTarget(address: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(address) && !/^[^:]+:\d+$/.test(address)
    ? address
    : `dns:///${address}`;
}
