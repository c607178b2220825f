// Bounded work per request: an input that cannot fit is refused before it costs much, work whose
// caller is gone is not done, and a full queue answers 429 at once instead of queueing.
import * as grpc from '@grpc/grpc-js';
import { DEFAULT_EDGE_LIMITS } from '@tessera/config';
import { CLIENT_CHANNEL_OPTIONS, loadService, type EmbedRequest } from '@tessera/contracts';
import { METRICS_REGISTRY } from '@tessera/observability';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import type { Registry } from 'prom-client';
import { post, startEmbeddingsService, startGateway, useStack } from './support/test-stack';

/** `count` words: 2 × count + 2 tiny-bert tokens ('word' is two, plus [CLS] and [SEP]). */
const words = (count: number) => Array(count).fill('word').join(' ');

/** Inputs the model has run, all batches summed, from the service's own histogram. */
async function inputsRun(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric('tessera_embeddings_batch_items')?.get();
  const values = (metric?.values ?? []) as { metricName?: string; value: number }[];
  return values.find((v) => v.metricName === 'tessera_embeddings_batch_items_sum')?.value ?? 0;
}

describe('an input that cannot fit the model', () => {
  // The service's own bound is under test: the gateway lets a body as large as chat's through
  // (its 2 MiB limit for embeddings would answer 413 first).
  const stack = useStack({
    edge: { ...DEFAULT_EDGE_LIMITS, jsonBodyLimitBytes: 16 * 1024 * 1024 },
  });

  it('answers a 15 MB input with a 400 at once, without delaying other requests', async () => {
    const { gateway, embeddings } = stack();
    const registry = embeddings.app.get<Registry>(METRICS_REGISTRY);
    const before = await inputsRun(registry);
    const huge = 'lorem ipsum '.repeat(1_250_000); // 15 MB
    const refused = post(gateway, '/v1/embeddings', { model: 'tiny-bert', input: huge });
    const small = post(gateway, '/v1/embeddings', { model: 'tiny-bert', input: 'still served' });

    const [tooLong, ok] = await Promise.all([refused, small]);
    expect(ok.status).toBe(200);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      error: {
        message: expect.stringMatching(
          /^input is 15000000 characters long, more than the model 'tiny-bert' can take: it accepts at most 128 tokens per input/,
        ),
        type: 'invalid_request_error',
        param: 'input',
        code: 'context_length_exceeded',
      },
    });
    // Refused before the model's worker took it (where tokenizing 15 MB took ~20 s): only the
    // small input was run.
    expect((await inputsRun(registry)) - before).toBe(1);
  });

  it('stops tokenizing an input clearly over the limit, and says so', async () => {
    const response = await post(stack().gateway, '/v1/embeddings', {
      model: 'tiny-bert',
      input: ['short', words(300)],
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: { param: 'input[1]', code: 'context_length_exceeded' },
    });
    const message = (response.body as { error: { message: string } }).error.message;
    expect(message).toMatch(
      /^input\[1\] is at least \d+ tokens long, but the model 'tiny-bert' accepts at most 128 tokens per input/,
    );
    // Counted on a prefix: past the limit, short of the whole input's 602 tokens.
    const counted = Number(/at least (\d+)/.exec(message)?.[1]);
    expect(counted).toBeGreaterThan(128);
    expect(counted).toBeLessThan(602);
  });
});

describe('work whose caller is gone', () => {
  it('is never run: neither requests past their deadline nor cancelled ones', async () => {
    const service = await startEmbeddingsService();
    const registry = service.app.get<Registry>(METRICS_REGISTRY);
    const Embeddings = loadService('embeddings');
    const client = new Embeddings(
      `127.0.0.1:${service.grpcPort}`,
      grpc.credentials.createInsecure(),
      CLIENT_CHANNEL_OPTIONS,
    );
    const embed = (request: EmbedRequest, options: grpc.CallOptions = {}) => {
      let call: grpc.ClientUnaryCall | undefined;
      const answer = new Promise<grpc.ServiceError | null>((resolve) => {
        call = client.Embed(request, new grpc.Metadata(), options, (error) => resolve(error));
      });
      return { answer, cancel: () => call?.cancel() };
    };
    try {
      const before = await inputsRun(registry);
      // Keeps the only worker busy for a while: 2048 inputs of ~100 tokens.
      const heavy = embed({
        model: 'tiny-bert',
        inputs: Array.from({ length: 2048 }, (_, i) => ({ text: `${i} ${words(50)}` })),
      });
      // The heavy request must be queued ahead of the others: wait for its first batch to run
      // (a fixed pause lost that race on a loaded machine, and the others then ran first).
      for (let polls = 0; (await inputsRun(registry)) === before && polls < 2000; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const one = { model: 'tiny-bert', inputs: [{ text: 'too late' }] };
      const expiring = Array.from({ length: 5 }, () => embed(one, { deadline: Date.now() + 20 }));
      const cancelled = Array.from({ length: 5 }, () => embed(one));
      await new Promise((resolve) => setTimeout(resolve, 20));
      for (const call of cancelled) call.cancel();

      expect(await heavy.answer).toBeNull();
      for (const call of expiring) {
        expect((await call.answer)?.code).toBe(grpc.status.DEADLINE_EXCEEDED);
      }
      for (const call of cancelled) expect((await call.answer)?.code).toBe(grpc.status.CANCELLED);
      // One more request runs, and only it joins the heavy one in the count.
      expect(await embed(one).answer).toBeNull();
      expect((await inputsRun(registry)) - before).toBe(2048 + 1);
    } finally {
      client.close();
      await service.close();
    }
  });
});

describe('a model with a small queue and a small request cap', () => {
  let service: Awaited<ReturnType<typeof startEmbeddingsService>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  const embed = (input: string[]) => post(gateway, '/v1/embeddings', { model: 'tiny-bert', input });

  beforeAll(async () => {
    const source = JSON.stringify(fixtureModelDir('tiny-bert'));
    const options = '{ max_queued_items: 4, max_request_tokens: 1000, intra_op_threads: 1 }';
    const modelsFile = temporaryModelsFile([
      `models: [{ id: tiny-bert, capability: embeddings, source: ${source}, options: ${options} }]`,
    ]);
    service = await startEmbeddingsService(modelsFile);
    gateway = await startGateway({
      modelsFile,
      upstreams: { embeddings: `127.0.0.1:${service.grpcPort}` },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await service.close();
  });

  it('answers 429 with the OpenAI error body instead of queueing', async () => {
    const input = Array.from({ length: 4 }, () => words(50));
    const responses = await Promise.all(Array.from({ length: 30 }, () => embed(input)));
    const statuses = responses.map((r) => r.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(responses.find((r) => r.status === 429)?.body).toEqual({
      error: {
        // One sentence, no nested parentheses: what waits, the bound, what to do.
        message: expect.stringMatching(
          /^The model is busy: \d+ items are already waiting for this model \(at most 4\); retry shortly\.$/,
        ),
        type: 'rate_limit_error',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
  });

  it('refuses a request whose inputs add up to more tokens than a request may have', async () => {
    // 102 tokens each: the tenth input takes the request to 1020 tokens.
    const response = await embed(Array.from({ length: 20 }, () => words(50)));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        message:
          'The inputs up to input[9] add up to 1020 tokens, more than the 1000 tokens per ' +
          "request that 'tiny-bert' accepts. Send the inputs in several requests.",
        type: 'invalid_request_error',
        param: 'input',
        code: 'max_tokens_per_request',
      },
    });
  });
});
