// The gateway's view of its upstreams against real grpc-js servers with the standard health
// service: one replica serving, then not, then again; and a replica that stops answering at all.
import { GrpcServerHost } from '@tessera/contracts';
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

it('takes a replica for down only after failed checks in a row, and tells the calls in flight', async () => {
  await checks(1);
  host.setServing(false);
  const results = await checks(HEALTH_FAILURES_TO_DOWN);
  // Still taken for up after the first failure (one slow answer is not enough).
  expect(results).toEqual([...Array(HEALTH_FAILURES_TO_DOWN - 1).fill(true), false]);
  expect(health.unavailable('embeddings')).toBe(true);
  // The replica by name, then the whole capability.
  expect(lost).toEqual([`127.0.0.1:${host.port}`, null]);

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
  expect(lost).toContain(null);
});
