// The gateway balances calls per request over every address the resolver returns
// (round_robin), as it must behind a headless Kubernetes Service. grpc-js's `ipv4:` target hands
// the policy the same kind of address list that DNS would.
import { startEmbeddingsService, startGateway, type TestService } from './support/test-stack';

let services: TestService[] = [];
let gateway: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  services = [await startEmbeddingsService(), await startEmbeddingsService()];
  const addresses = services.map((s) => `127.0.0.1:${s.grpcPort}`).join(',');
  gateway = await startGateway({ upstreams: { embeddings: `ipv4:${addresses}` } });
});
afterAll(async () => {
  await gateway?.close();
  for (const service of services) await service.close();
});

async function embedCalls(service: TestService): Promise<number> {
  const text = await (await fetch(`${await service.app.getUrl()}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) =>
      l.startsWith(
        'tessera_grpc_server_handled_total{method="tessera.v1.Embeddings/Embed",code="OK"',
      ),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

it('spreads calls over every upstream address', async () => {
  for (let i = 0; i < 10; i++) {
    await gateway.client.embeddings.create({ model: 'tiny-bert', input: `request ${i}` });
  }
  const counts = await Promise.all(services.map(embedCalls));
  expect(counts[0] + counts[1]).toBe(10);
  expect(counts[0]).toBeGreaterThanOrEqual(3);
  expect(counts[1]).toBeGreaterThanOrEqual(3);
});
