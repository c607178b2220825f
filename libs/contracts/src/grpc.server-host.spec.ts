import * as grpc from '@grpc/grpc-js';
import type { EmbedResponse } from './generated/tessera/v1/EmbedResponse';
import { checkServing, createHealthClient } from './grpc.health-client';
import { CLIENT_CHANNEL_OPTIONS } from './grpc.options';
import { loadService } from './grpc.package';
import { GrpcServerHost } from './grpc.server-host';

describe('GrpcServerHost', () => {
  it("answers the capability's methods with UNAVAILABLE until it is serving, health always", async () => {
    const host = new GrpcServerHost('embeddings', {
      Embed: (_call: unknown, callback: grpc.sendUnaryData<EmbedResponse>) =>
        callback(null, { model: 'm', embeddings: [] }),
    });
    const port = await host.listen('127.0.0.1', 0);
    const Embeddings = loadService('embeddings');
    const client = new Embeddings(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
      CLIENT_CHANNEL_OPTIONS,
    );
    const health = createHealthClient(`127.0.0.1:${port}`, CLIENT_CHANNEL_OPTIONS);
    const embed = () =>
      new Promise<grpc.status>((resolve) =>
        client.Embed({ model: 'm', inputs: [] }, (error) => resolve(error ? error.code : 0)),
      );
    try {
      expect(await embed()).toBe(grpc.status.UNAVAILABLE);
      expect(await checkServing(health, 'tessera.v1.Embeddings', 2000)).toBe(false);
      host.setServing(true);
      expect(await embed()).toBe(grpc.status.OK);
      expect(await checkServing(health, 'tessera.v1.Embeddings', 2000)).toBe(true);
      host.setServing(false);
      expect(await embed()).toBe(grpc.status.UNAVAILABLE);
    } finally {
      client.close();
      health.close();
      await host.close(100);
    }
  });
});
