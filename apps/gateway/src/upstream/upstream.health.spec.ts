// The gateway's view of its upstreams against real grpc-js servers with the standard health
// service: one replica serving, then not (draining), then again; and a replica that answers
// nothing at all.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS } from '@tessera/contracts';
import { GrpcServerHost } from '@tessera/service';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { HEALTH_FAILURES_TO_DOWN, UpstreamHealth } from './upstream.health';

let host: GrpcServerHost;
let health: UpstreamHealth;
const lost: (string | null)[] = [];

beforeEach(async () => {
  host = new GrpcServerHost('embeddings', {});
  await host.listen('127.0.0.1', 0);
  host.setServing(true);
  health = new UpstreamHealth({ embeddings: `127.0.0.1:${host.port}` });
  lost.length = 0;
  health.onLost('embeddings', (peer) => lost.push(peer));
});

afterEach(async () => {
  health.stop();
  await host.close(0);
});

async function checks(times: number): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < times; i++) results.push(await health.check('embeddings'));
  return results;
}

it('is available while unknown and while a replica serves', async () => {
  expect(health.unavailable('embeddings')).toBe(false);
  expect(await checks(1)).toEqual([true]);
  expect(health.unavailable('embeddings')).toBe(false);
  expect(lost).toEqual([]);
});

it('takes a replica for down only after failed checks in a row; a draining one keeps its calls', async () => {
  await checks(1);
  host.setServing(false);
  const results = await checks(HEALTH_FAILURES_TO_DOWN);
  // Still taken for up after the first failure (one slow answer is not enough).
  expect(results).toEqual([...Array(HEALTH_FAILURES_TO_DOWN - 1).fill(true), false]);
  expect(health.unavailable('embeddings')).toBe(true);
  // NOT_SERVING is a replica draining: its calls in flight finish there.
  expect(lost).toEqual([]);

  host.setServing(true);
  expect(await checks(1)).toEqual([true]);
  expect(health.unavailable('embeddings')).toBe(false);
});

it('counts a replica that stopped answering as down, and one never seen as not ready', async () => {
  await host.close(0);
  expect(await checks(HEALTH_FAILURES_TO_DOWN)).toEqual(Array(HEALTH_FAILURES_TO_DOWN).fill(false));
  expect(health.unavailable('embeddings')).toBe(true);
});

it('watches in the background once started', async () => {
  health.start();
  host.setServing(false);
  while (!health.unavailable('embeddings')) await new Promise((r) => setTimeout(r, 50));
  expect(health.unavailable('embeddings')).toBe(true);
});

describe('a replica that answers nothing (a frozen process)', () => {
  let silent: grpc.Server;
  let port: number;
  beforeEach(async () => {
    // The standard health service, whose Check never answers.
    const definition = protoLoader.loadSync(healthProtoPath, PROTO_LOADER_OPTIONS);
    const { Health } = (
      grpc.loadPackageDefinition(definition) as unknown as {
        grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
      }
    ).grpc.health.v1;
    silent = new grpc.Server();
    silent.addService(Health.service, { check: () => undefined, watch: () => undefined });
    port = await new Promise<number>((resolve, reject) =>
      silent.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
  });
  afterEach(() => silent.forceShutdown());

  it('is down after the deadline twice, and its calls are told by name, then all of them', async () => {
    const frozen = new UpstreamHealth({
      embeddings: `ipv4:127.0.0.1:${port},127.0.0.1:${host.port}`,
    });
    const told: (string | null)[] = [];
    frozen.onLost('embeddings', (peer) => told.push(peer));
    try {
      for (let i = 0; i < HEALTH_FAILURES_TO_DOWN; i++) await frozen.check('embeddings');
      // The other replica serves: available, and only the silent replica's calls are ended.
      expect(frozen.unavailable('embeddings')).toBe(false);
      expect(told).toEqual([`127.0.0.1:${port}`]);
    } finally {
      frozen.stop();
    }
    const alone = new UpstreamHealth({ embeddings: `127.0.0.1:${port}` });
    alone.onLost('embeddings', (peer) => told.push(peer));
    try {
      for (let i = 0; i < HEALTH_FAILURES_TO_DOWN; i++) await alone.check('embeddings');
      expect(alone.unavailable('embeddings')).toBe(true);
      expect(told.slice(1)).toEqual([`127.0.0.1:${port}`, null]);
    } finally {
      alone.stop();
    }
  }, 30_000);
});
