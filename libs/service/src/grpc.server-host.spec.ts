import * as grpc from '@grpc/grpc-js';
import {
  CLIENT_CHANNEL_OPTIONS,
  SERVER_CHANNEL_OPTIONS,
  checkHealth,
  createHealthClient,
  loadService,
  type EmbedResponse,
} from '@tessera/contracts';
import { GrpcServerHost } from './grpc.server-host';

type EmbeddingsClient = InstanceType<ReturnType<typeof loadService<'embeddings'>>>;

function embeddingsClient(target: string, options = CLIENT_CHANNEL_OPTIONS): EmbeddingsClient {
  const Embeddings = loadService('embeddings');
  return new Embeddings(target, grpc.credentials.createInsecure(), options);
}

/** One Embed call: its status code, and the model the answer names when it succeeded. */
function embed(
  client: EmbeddingsClient,
  model = 'm',
): Promise<{ code: grpc.status; model?: string }> {
  return new Promise((resolve) =>
    client.Embed(
      { model, inputs: [] },
      (error: grpc.ServiceError | null, response?: EmbedResponse) =>
        resolve(error ? { code: error.code } : { code: grpc.status.OK, model: response!.model }),
    ),
  );
}

describe('GrpcServerHost', () => {
  it("answers the capability's methods with UNAVAILABLE until it is serving, health always", async () => {
    const host = new GrpcServerHost('embeddings', {
      Embed: (_call: unknown, callback: grpc.sendUnaryData<EmbedResponse>) =>
        callback(null, { model: 'm', embeddings: [] }),
    });
    const port = await host.listen('127.0.0.1', 0);
    const client = embeddingsClient(`127.0.0.1:${port}`);
    const health = createHealthClient(`127.0.0.1:${port}`, CLIENT_CHANNEL_OPTIONS);
    const code = async () => (await embed(client)).code;
    try {
      expect(await code()).toBe(grpc.status.UNAVAILABLE);
      expect(await checkHealth(health, 'tessera.v1.Embeddings', 2000)).toBe('not_serving');
      host.setServing(true);
      expect(await code()).toBe(grpc.status.OK);
      expect(await checkHealth(health, 'tessera.v1.Embeddings', 2000)).toBe('serving');
      host.setServing(false);
      expect(await code()).toBe(grpc.status.UNAVAILABLE);
    } finally {
      client.close();
      health.close();
      await host.close(100);
    }
  });

  it('lets a call in flight finish when closed, whatever keepalive pings fall in the drain', async () => {
    // Keepalive pings every 50 ms on both sides: a ping sent on a connection that has begun
    // its graceful close (GOAWAY) fails, and grpc-js then drops the connection with the calls
    // still on it (grpc/grpc-node#3068). The drain must not close connections under a call.
    const keepalive = { 'grpc.keepalive_time_ms': 50, 'grpc.keepalive_permit_without_calls': 1 };
    const host = new GrpcServerHost(
      'embeddings',
      {
        Embed: (_call: unknown, callback: grpc.sendUnaryData<EmbedResponse>) =>
          setTimeout(() => callback(null, { model: 'late', embeddings: [] }), 600),
      },
      { ...SERVER_CHANNEL_OPTIONS, ...keepalive },
    );
    const port = await host.listen('127.0.0.1', 0);
    host.setServing(true);
    const client = embeddingsClient(`127.0.0.1:${port}`, {
      ...CLIENT_CHANNEL_OPTIONS,
      ...keepalive,
    });
    try {
      const answer = embed(client);
      await new Promise((resolve) => setTimeout(resolve, 100)); // the call is at the handler
      const closing = host.close(5_000);
      await expect(answer).resolves.toEqual({ code: grpc.status.OK, model: 'late' });
      await closing;
    } finally {
      client.close();
    }
  });

  it('cuts a call still running when the grace runs out', async () => {
    const host = new GrpcServerHost('embeddings', { Embed: () => undefined }); // never answers
    const port = await host.listen('127.0.0.1', 0);
    host.setServing(true);
    const client = embeddingsClient(`127.0.0.1:${port}`);
    try {
      const answer = embed(client);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      await host.close(300);
      expect(Date.now() - started).toBeLessThan(5_000); // the grace, not the call, ends it
      expect((await answer).code).not.toBe(grpc.status.OK);
    } finally {
      client.close();
    }
  });

  it('sends no new call to a replica while it drains: the client retries them on another', async () => {
    // Two replicas behind one round_robin channel (a headless Service's addresses), each with a
    // slow call in flight. While the first drains (its slow call still running, its connection
    // kept open), every new call must still succeed: refused by the draining one (UNAVAILABLE,
    // before any handler ran), then retried by the channel on the other.
    const replica = (name: string) =>
      new GrpcServerHost('embeddings', {
        Embed: (
          call: grpc.ServerUnaryCall<{ model: string }, EmbedResponse>,
          callback: grpc.sendUnaryData<EmbedResponse>,
        ) => {
          const delay = call.request.model === 'slow' ? 800 : 0;
          setTimeout(() => callback(null, { model: name, embeddings: [] }), delay);
        },
      });
    const replicas = [replica('a'), replica('b')];
    const ports = await Promise.all(replicas.map((host) => host.listen('127.0.0.1', 0)));
    for (const host of replicas) host.setServing(true);
    const client = embeddingsClient(`ipv4:${ports.map((port) => `127.0.0.1:${port}`).join(',')}`);
    try {
      // Both connections up before the slow calls, so round_robin puts one on each replica.
      await embed(client, 'warm');
      await embed(client, 'warm');
      const slow = [embed(client, 'slow'), embed(client, 'slow')];
      await new Promise((resolve) => setTimeout(resolve, 100));
      const draining = replicas[0].close(5_000);
      const during: { code: grpc.status; model?: string }[] = [];
      for (let i = 0; i < 10; i++) during.push(await embed(client, 'quick'));
      expect(during).toEqual(Array(10).fill({ code: grpc.status.OK, model: 'b' }));
      const answers = await Promise.all(slow);
      expect(answers.map((answer) => answer.model).sort()).toEqual(['a', 'b']);
      await draining;
    } finally {
      client.close();
      await replicas[1].close(100);
    }
  });
});
