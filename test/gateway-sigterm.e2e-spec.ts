// SIGTERM to the gateway process with streams in flight, as the launcher or the kubelet sends
// it: the gateway, the chat and the speech services each run as a process of their own (the
// built entry points). While it drains, the gateway still accepts connections and answers new
// requests 503 `server_shutting_down` (never a refused connection); every stream it holds either
// completes or, when the drain time is up, ends cleanly: a server-sent event stream with an
// `error` event and a complete chunked body, raw audio with its body aborted (or a 503, when it
// had not started). Then the process exits 0. Asserted by outcome and order, never by time.
import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { CHAT_MODEL } from './support/chat-stack';
import {
  startBuiltGateway,
  startBuiltService,
  type BuiltGateway,
  type BuiltService,
} from './support/built-processes';
import { TEST_API_KEY } from './support/test-stack';

let chat: BuiltService;
let speech: BuiltService;
let gateway: BuiltGateway;

beforeAll(async () => {
  [chat, speech] = await Promise.all([startBuiltService('chat'), startBuiltService('speech')]);
  // A drain shorter than the long streams: some of them are still running when it is up.
  gateway = await startBuiltGateway({ chat, speech }, { TESSERA_DRAIN_TIMEOUT_MS: '3000' });
}, 180_000);

afterAll(() => {
  for (const process of [gateway, chat, speech]) process?.kill();
});

interface Outcome {
  /** null: no response at all (refused, reset before the head). */
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body arrived whole: for a chunked body, its terminating chunk came. */
  complete: boolean;
  /** The connection or body error, if any (ECONNREFUSED, "aborted"). */
  failure: string | null;
}

/** One request on a connection of its own; `started` resolves at its first body bytes. */
function send(method: string, path: string, body?: unknown) {
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = new Promise<Outcome>((resolve) => {
    const outcome: Outcome = {
      status: null,
      headers: {},
      body: '',
      complete: false,
      failure: null,
    };
    const request = httpRequest(
      `${gateway.url}${path}`,
      {
        method,
        agent: false,
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      },
      (response) => {
        outcome.status = response.statusCode ?? null;
        outcome.headers = response.headers;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          outcome.body += chunk;
          markStarted();
        });
        response.on('end', () => (outcome.complete = response.complete));
        response.on('error', (error) => (outcome.failure = error.message));
        response.on('close', () => {
          markStarted();
          resolve(outcome);
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      outcome.failure = error.code ?? error.message;
      markStarted();
      resolve(outcome);
    });
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
  return { started, done };
}

/** The JSON of the last `data:` event of a server-sent event body (`[DONE]` as the string). */
function lastEvent(body: string): unknown {
  const events = body
    .split('\n\n')
    .map((event) => event.trim())
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
  const last = events[events.length - 1];
  return last === '[DONE]' ? last : JSON.parse(last);
}

const SHUTTING_DOWN = {
  error: expect.objectContaining({
    type: 'service_unavailable_error',
    code: 'server_shutting_down',
  }),
};

/** Completed as its format ends (`completed` says so of its last event), or ended at the drain
 * with an error event; in both cases a complete chunked body, never a cut one. */
function expectSseEndedCleanly(outcome: Outcome, completed: (last: unknown) => boolean): void {
  expect(outcome.status).toBe(200);
  expect(outcome.failure).toBeNull();
  expect(outcome.complete).toBe(true);
  const last = lastEvent(outcome.body);
  if (!completed(last)) expect(last).toEqual(SHUTTING_DOWN);
}

const chatCompleted = (last: unknown) => last === '[DONE]';
const speechCompleted = (last: unknown) => (last as { type?: string }).type === 'speech.audio.done';

it('drains on SIGTERM: new requests get 503 while streams end cleanly, then it exits 0', async () => {
  const chatBody = (maxTokens: number) => ({
    model: CHAT_MODEL,
    messages: [{ role: 'user', content: 'Write a long story.' }],
    max_tokens: maxTokens,
    stream: true,
  });
  const text = 'A sentence for the voice to say, and then another one. '.repeat(30);
  const speechBody = (format: 'sse' | 'audio') => ({
    model: 'tts-1',
    voice: 'alloy',
    input: text,
    response_format: 'wav',
    stream_format: format,
  });
  const chats = [
    ...Array.from({ length: 5 }, () => send('POST', '/v1/chat/completions', chatBody(2000))),
    send('POST', '/v1/chat/completions', chatBody(8)),
  ];
  const speechSse = send('POST', '/v1/audio/speech', speechBody('sse'));
  const speechAudio = send('POST', '/v1/audio/speech', speechBody('audio'));
  const all = [...chats, speechSse, speechAudio];
  // And one through the OpenAI SDK, which turns an error event into an APIError.
  const sdk = new OpenAI({ apiKey: TEST_API_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const sdkStream = await sdk.chat.completions.create({
    model: CHAT_MODEL,
    messages: [{ role: 'user', content: 'Write a long story.' }],
    max_tokens: 2000,
    stream: true,
  });
  const sdkChunks = sdkStream[Symbol.asyncIterator]();
  await sdkChunks.next();
  const sdkOutcome = (async () => {
    for (let chunk = await sdkChunks.next(); !chunk.done; chunk = await sdkChunks.next());
    return 'completed';
  })().catch((error: unknown) => error);
  await Promise.all(all.map((stream) => stream.started));
  // The long chats outlast the drain: until the first of them ends, the gateway is draining.
  let longEnded = false;
  for (const stream of chats.slice(0, 5)) void stream.done.then(() => (longEnded = true));

  const exited = gateway.exited;
  gateway.child.kill('SIGTERM');

  // Until the signal is handled a new request is served as usual; from then on, while the
  // streams drain, each is answered 503 on a connection the gateway still accepts. A score of
  // them, a moment's work beside the drain's 3 s; should the drain end meanwhile, a probe in
  // flight as the port closed may meet a reset, as at any server's last close.
  const probes: Outcome[] = [];
  let drainOverAt = -1;
  while (probes.length < 2000) {
    probes.push(await send('GET', '/v1/models').done);
    if (longEnded) drainOverAt = probes.length - 1;
    const answered503 = probes.filter((probe) => probe.status === 503).length;
    if (drainOverAt >= 0 || answered503 > 20) break;
  }
  const first503 = probes.findIndex((probe) => probe.status === 503);
  expect(first503).toBeGreaterThanOrEqual(0);
  expect(probes.slice(0, first503).map((probe) => probe.status)).toEqual(Array(first503).fill(200));
  // Never a refused or reset connection while draining.
  const whileDraining = probes.slice(first503, drainOverAt >= 0 ? drainOverAt : undefined);
  expect(whileDraining.map((probe) => probe.failure ?? probe.status)).toEqual(
    Array(whileDraining.length).fill(503),
  );
  const refusal = probes[first503];
  expect(refusal.failure).toBeNull();
  expect(JSON.parse(refusal.body)).toEqual(SHUTTING_DOWN);
  expect(refusal.headers['retry-after']).toMatch(/^\d+$/);
  expect(refusal.headers.connection).toBe('close');

  const [chatOutcomes, sseOutcome, audioOutcome] = await Promise.all([
    Promise.all(chats.map((stream) => stream.done)),
    speechSse.done,
    speechAudio.done,
  ]);
  for (const outcome of chatOutcomes) expectSseEndedCleanly(outcome, chatCompleted);
  expectSseEndedCleanly(sseOutcome, speechCompleted);
  // Raw audio has no error event: whole, or (once started) aborted so that no client takes a
  // cut-short file for a whole one, or a 503 when it had not started. Never no answer at all.
  expect(audioOutcome.status).not.toBeNull();
  if (audioOutcome.status === 200 && !audioOutcome.complete) {
    expect(audioOutcome.failure).not.toBeNull();
  } else if (audioOutcome.status !== 200) {
    expect(audioOutcome.status).toBe(503);
    expect(JSON.parse(audioOutcome.body)).toEqual(SHUTTING_DOWN);
  }
  // Some long stream outlasted the drain and was ended by it (the case this is about).
  expect(chatOutcomes.some((outcome) => !chatCompleted(lastEvent(outcome.body)))).toBe(true);

  const sdkEnd = await sdkOutcome;
  if (sdkEnd !== 'completed') {
    expect(sdkEnd).toBeInstanceOf(OpenAI.APIError);
    expect((sdkEnd as Error).message).toMatch(/shut down/);
  }

  expect(await exited).toEqual({ code: 0, signal: null });
}, 120_000);
