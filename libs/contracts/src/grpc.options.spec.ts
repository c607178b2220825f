import * as fs from 'node:fs';
import * as path from 'node:path';
import * as net from 'node:net';
import { checkHealth, createHealthClient } from './grpc.health-client';
import { CLIENT_CHANNEL_OPTIONS, grpcTarget, protoRoot } from './grpc.options';

describe('grpcTarget', () => {
  it('resolves plain host:port through DNS so round_robin sees every address', () => {
    expect(grpcTarget('embeddings:50051')).toBe('dns:///embeddings:50051');
    expect(grpcTarget('127.0.0.1:4000')).toBe('dns:///127.0.0.1:4000');
  });

  it('keeps targets that already name a scheme', () => {
    expect(grpcTarget('dns:///svc.ns.svc.cluster.local:50051')).toBe(
      'dns:///svc.ns.svc.cluster.local:50051',
    );
    expect(grpcTarget('unix:///tmp/embeddings.sock')).toBe('unix:///tmp/embeddings.sock');
  });
});

it('finds proto/ above the code', () => {
  expect(fs.existsSync(path.join(protoRoot(), 'tessera/v1/embeddings.proto'))).toBe(true);
});

describe('CLIENT_CHANNEL_OPTIONS', () => {
  it('retries an unreachable upstream about every second, so a restarted one is used at once', async () => {
    // An upstream that is down: it accepts TCP and hangs up, so each connection attempt of the
    // channel can be seen (and fails, as one to a closed port does).
    const attempts: number[] = [];
    const upstream = net.createServer((socket) => {
      attempts.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as net.AddressInfo;
    const client = createHealthClient(grpcTarget(`127.0.0.1:${port}`), CLIENT_CHANNEL_OPTIONS);
    try {
      // Calls fail fast meanwhile (the gateway's 503s); grpc-js's default backoff (1 s, ×1.6
      // per attempt) would leave gaps of 1.6, 2.6 and 4.1 s within these six seconds.
      const until = Date.now() + 6000;
      while (Date.now() < until) {
        expect(await checkHealth(client, 'tessera.v1.Embeddings', 500)).not.toBe('serving');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      client.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]);
    expect(attempts.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...gaps)).toBeLessThan(1500);
  }, 20_000);
});
