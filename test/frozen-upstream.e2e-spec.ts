// A frozen service (SIGSTOP: its connections stay open, nothing answers) must not hold requests
// until their deadline: once the gateway's health checks find no replica serving, /readyz says
// so, calls in flight to it end with a 503, and new ones are answered 503 with Retry-After at
// once; after SIGCONT it serves again. Asserted by order (the answers come while the service is
// still stopped), never by time. The service runs as a process of its own (the built entry point).
import OpenAI from 'openai';
import { UpstreamClients } from '../apps/gateway/src/upstream/upstream-clients';
import { expectOpenAIError } from './support/openai-error.expect';
import { startBuiltService, type BuiltService } from './support/built-processes';
import { post, startGateway, type TestGateway } from './support/test-stack';

let embeddings: BuiltService;
let gateway: TestGateway;
/** Set when the service was resumed; a safety net so that a failing test cannot wedge it. */
let resumed = true;
let resumeTimer: NodeJS.Timeout | undefined;

beforeAll(async () => {
  embeddings = await startBuiltService('embeddings');
  // The deadline (30 s) is longer than the safety net (20 s): before the fix, a request sent
  // to the frozen service was answered only once it was resumed.
  gateway = await startGateway({
    upstreams: { embeddings: embeddings.grpcAddress },
    requestTimeoutMs: 30_000,
  });
}, 120_000);

afterAll(async () => {
  resume();
  await gateway?.close();
  embeddings?.kill();
});

function freeze(): void {
  resumed = false;
  process.kill(embeddings.pid, 'SIGSTOP');
  resumeTimer = setTimeout(resume, 20_000);
}

function resume(): void {
  clearTimeout(resumeTimer);
  if (resumed) return;
  resumed = true;
  process.kill(embeddings.pid, 'SIGCONT');
}

const embed = () => post(gateway, '/v1/embeddings', { model: 'tiny-bert', input: 'hello' });

async function embeddingsReady(): Promise<boolean> {
  const response = await fetch(`${gateway.url}/readyz`);
  const body = (await response.json()) as { details?: Record<string, { status: string }> };
  return body.details?.embeddings?.status === 'up';
}

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  let met = false;
  for (const deadline = Date.now() + 30_000; !met && Date.now() < deadline;) {
    met = await condition();
    if (!met) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(met).toBe(true);
}

it('serves while the service runs', async () => {
  expect((await embed()).status).toBe(200);
  expect(await embeddingsReady()).toBe(true);
});

it('ends a call in flight to the frozen service with a 503 before the service resumes', async () => {
  freeze();
  const answer = await embed();
  const answeredWhileFrozen = !resumed;
  resume();
  expect(answer.status).toBe(503);
  expectEmbeddingsUnavailable(answer);
  expect(answeredWhileFrozen).toBe(true);
  await waitUntil(async () => (await embed()).status === 200);
}, 60_000);

it('once /readyz reports the service down, answers 503 with Retry-After at once; serves again after SIGCONT', async () => {
  freeze();
  await waitUntil(async () => !(await embeddingsReady()));
  const answer = await embed();
  // What the OpenAI SDK makes of it: an APIError with the status and the wait.
  const sdkError = await gateway.client.embeddings
    .create({ model: 'tiny-bert', input: 'hello' })
    .then(
      () => null,
      (error: unknown) => error,
    );
  const answeredWhileFrozen = !resumed;
  expect(sdkError).toBeInstanceOf(OpenAI.APIError);
  expect(sdkError).toMatchObject({ status: 503, type: 'service_unavailable_error' });
  expect((sdkError as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('3');
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
  expectEmbeddingsUnavailable(answer);
  expect(answeredWhileFrozen).toBe(true);

  resume();
  await waitUntil(async () => (await embed()).status === 200);
  expect(await embeddingsReady()).toBe(true);
}, 60_000);

it("ends a call to the frozen service at its own deadline (grpc-js' deadline, no health involved)", async () => {
  // Built alone, the clients watch no health: only the deadline can end the call.
  const clients = new UpstreamClients({
    upstreams: { embeddings: embeddings.grpcAddress },
    requestTimeoutMs: 30_000,
  } as never);
  try {
    freeze();
    const outcome = await clients
      .unary(
        'embeddings',
        'Embed',
        { model: 'tiny-bert', inputs: [{ text: 'hello' }] },
        {
          timeoutMs: 500,
        },
      )
      .then(
        () => 200,
        (error: { status?: number }) => error.status,
      );
    const endedWhileFrozen = !resumed;
    resume();
    expect(outcome).toBe(504);
    expect(endedWhileFrozen).toBe(true);
  } finally {
    resume();
    clients.onApplicationShutdown();
  }
}, 60_000);

describe('with a second replica serving', () => {
  let other: BuiltService;
  let balanced: TestGateway;
  beforeAll(async () => {
    other = await startBuiltService('embeddings');
    balanced = await startGateway({
      upstreams: { embeddings: `ipv4:${embeddings.grpcAddress},${other.grpcAddress}` },
      requestTimeoutMs: 30_000,
    });
  }, 120_000);
  afterAll(async () => {
    await balanced?.close();
    other?.kill();
  });

  it('answers every request from the replica that serves while the other is frozen', async () => {
    // Both connections up first (round-robin connects to every address).
    for (let i = 0; i < 4; i++) {
      expect(
        (await post(balanced, '/v1/embeddings', { model: 'tiny-bert', input: 'a' })).status,
      ).toBe(200);
    }
    freeze();
    // Sent one after another, so that round-robin hands some to the frozen replica: those fail
    // over once its connection is found dead, instead of waiting for the service to resume.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await post(balanced, '/v1/embeddings', { model: 'tiny-bert', input: 'a' })).status,
      );
    }
    const answeredWhileFrozen = !resumed;
    resume();
    expect(statuses).toEqual(Array(6).fill(200));
    expect(answeredWhileFrozen).toBe(true);
  }, 60_000);
});

/** The 503 of a capability known to be down, in the OpenAI error shape. */
function expectEmbeddingsUnavailable(answer: { status: number; body: unknown }): void {
  expectOpenAIError(answer, 503, {
    type: 'service_unavailable_error',
    param: null,
    code: null,
    message: /embeddings/,
  });
}
