// Faults on the launched fixture stack (separate processes, as `npm run start:fixtures` runs
// them): each service killed with SIGKILL is answered 503 with Retry-After for its capability
// only while the launcher restarts it, and the gateway recovers by itself (the times are
// printed); a service killed mid-stream (chat, speech and transcription SSE) ends the client's
// stream with an error event within 5 s; SIGTERM to a service lets its in-flight stream
// finish within the drain timeout while new requests get 503. Needs `npm run build` first (as
// `npm test` does).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from '@tessera/testing';
import type { Capability } from '@tessera/contracts';
import { createParser } from 'eventsource-parser';
import { freePort } from '../../tools/stack/ports';
import { capabilityRequests, type Answer } from '../../bench/lib/capability.requests';
import { expectOpenAIError } from '../support/openai-error.expect';
import { testAudio } from '../support/transcription-stack';

const KEY = 'tsk-faults-test';
const CAPABILITIES: Capability[] = ['embeddings', 'chat', 'moderation', 'speech', 'transcription'];
const DRAIN_TIMEOUT_MS = 8_000;

let launcher: ChildProcess;
let output = '';
let url: string;
let requests: ReturnType<typeof capabilityRequests>;
let longAudio: Buffer;
/** Milliseconds from SIGKILL to the first 200, per capability (printed at the end). */
const recoveryMs: Partial<Record<Capability, number>> = {};

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  launcher = spawn(
    process.execPath,
    ['dist/tools/stack/start.js', '--models', 'config/models.fixtures.yaml'],
    {
      cwd: repoRoot(),
      env: {
        ...process.env,
        PORT: String(port),
        TESSERA_API_KEYS: KEY,
        TESSERA_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  launcher.stdout!.on('data', (chunk) => (output += chunk));
  launcher.stderr!.on('data', (chunk) => (output += chunk));
  const audio = await testAudio('wav', 1);
  longAudio = await testAudio('wav', 90);
  requests = capabilityRequests(
    url,
    KEY,
    {
      embeddings: 'tiny-bert',
      chat: 'tiny-llama',
      moderation: 'tiny-moderation',
      speech: 'tiny-piper',
      transcription: 'tiny-whisper',
    },
    audio,
  );
  // Five services load and warm their models: over 150 s on a busy two-core machine.
  await waitFor(() => output.includes('Tessera is serving the OpenAI API'), 360_000);
}, 400_000);

afterAll(async () => {
  if (Object.keys(recoveryMs).length > 0) {
    process.stdout.write(`faults: recovery after SIGKILL (ms) ${JSON.stringify(recoveryMs)}\n`);
  }
  const exited = new Promise((resolve) => launcher?.once('exit', resolve));
  launcher?.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  for (const pid of descendantsOf(launcher?.pid ?? -1)) process.kill(pid, 'SIGKILL');
}, 30_000);

describe.each(CAPABILITIES)('the %s service killed with SIGKILL', (capability) => {
  it('is 503 with Retry-After for its capability only, until restarted; then served again', async () => {
    const others = CAPABILITIES.filter((c) => c !== capability);
    const killedAt = Date.now();
    process.kill(pidOf(capability), 'SIGKILL');
    let unavailable: Answer | undefined;
    let recovered = false;
    const statuses = new Set<number>();
    // The random-weight Whisper fixture warms up with a full decode at every fallback
    // temperature: its restart alone took ~100 s on a busy two-core machine.
    while (!recovered && Date.now() - killedAt < 240_000) {
      const answer = await requests[capability]();
      statuses.add(answer.status);
      if (answer.status === 503) unavailable ??= answer;
      recovered = answer.status === 200 && unavailable !== undefined;
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    recoveryMs[capability] = Date.now() - killedAt;
    expect(recovered).toBe(true);
    expect([...statuses].sort()).toEqual([200, 503]);
    expectOpenAIError(unavailable!, 503, {
      param: null,
      code: null,
      type: 'service_unavailable_error',
      message: new RegExp(capability),
    });
    expect(Number(unavailable!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The others never noticed (one request each, now that the killed one is back).
    for (const other of others) expect((await requests[other]()).status).toBe(200);
    await waitFor(() => output.includes(`${capability} ready again`), 30_000);
  }, 300_000);
});

/** The events of an SSE response as they arrive, each with its arrival time; `ended` at the end. */
async function streamEvents(
  path: string,
  body: unknown,
  onEvent: (event: unknown, index: number) => void,
): Promise<{ status: number; events: { data: unknown; at: number }[]; endedAt: number }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: { data: unknown; at: number }[] = [];
  const parser = createParser({
    onEvent: (event) => {
      const data = event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data);
      events.push({ data, at: Date.now() });
      onEvent(data, events.length - 1);
    },
  });
  const decoder = new TextDecoder();
  // A stream cut without its end would throw here ("terminated"): it must end cleanly.
  for await (const bytes of response.body!) parser.feed(decoder.decode(bytes, { stream: true }));
  return { status: response.status, events, endedAt: Date.now() };
}

const STREAMS: [Capability, string, unknown][] = [
  [
    'chat',
    '/v1/chat/completions',
    {
      model: 'tiny-llama',
      messages: [{ role: 'user', content: 'Write a long story.' }],
      max_tokens: 1500,
      stream: true,
    },
  ],
  [
    'speech',
    '/v1/audio/speech',
    {
      model: 'tiny-piper',
      voice: 'alloy',
      input: Array.from({ length: 60 }, (_, i) => `This is sentence number ${i}.`).join(' '),
      stream_format: 'sse',
    },
  ],
];

describe.each(STREAMS)('a %s stream whose service is killed', (capability, path, body) => {
  it('ends with an error event within 5 s, cleanly; the other capabilities still serve', async () => {
    let killedAt = 0;
    const result = await streamEvents(path, body, (_, index) => {
      if (index === 0) {
        killedAt = Date.now();
        process.kill(pidOf(capability), 'SIGKILL');
      }
    });
    expectErrorEnd(result, killedAt);
    expect((await requests.embeddings()).status).toBe(200);
    await waitForRecovery(capability);
  }, 300_000);
});

describe('a transcription stream whose service is killed', () => {
  it('ends with an error event within 5 s, cleanly', async () => {
    const form = new FormData();
    form.append('model', 'tiny-whisper');
    form.append('stream', 'true');
    form.append('file', new Blob([new Uint8Array(longAudio)]), 'long.wav');
    const response = await fetch(`${url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // The head is out: the service is at work on the first of three windows.
    const killedAt = Date.now();
    process.kill(pidOf('transcription'), 'SIGKILL');
    const events: { data: unknown; at: number }[] = [];
    const parser = createParser({
      onEvent: (event) => events.push({ data: JSON.parse(event.data), at: Date.now() }),
    });
    const decoder = new TextDecoder();
    for await (const bytes of response.body!) parser.feed(decoder.decode(bytes, { stream: true }));
    expectErrorEnd({ status: response.status, events, endedAt: Date.now() }, killedAt);
    expect((await requests.chat()).status).toBe(200);
    await waitForRecovery('transcription');
  }, 300_000);
});

describe('SIGTERM to a service', () => {
  it('lets its in-flight request finish within the drain timeout; new requests get 503', async () => {
    // A short request first, then a long generation, streamed so that the signal goes out once
    // that is surely at the service (its first event came back), not after a guessed delay that
    // a busy machine can outlast; the short one, sent before it, has had the same head start.
    const inFlight = requests.chat();
    let signalledAt = 0;
    let refused: Promise<Answer> | undefined;
    const long = await streamEvents(
      '/v1/chat/completions',
      {
        model: 'tiny-llama',
        messages: [{ role: 'user', content: 'Write a story.' }],
        max_tokens: 300,
        stream: true,
      },
      (_, index) => {
        if (index !== 0) return;
        signalledAt = Date.now();
        process.kill(pidOf('chat'), 'SIGTERM');
        refused = new Promise((resolve) => setTimeout(resolve, 200)).then(() => requests.chat());
      },
    );
    expect((await inFlight).status).toBe(200);
    expect(long.status).toBe(200);
    // It ran to its end: a finish reason, then [DONE], and no error event.
    const finish = long.events.map(
      (event) =>
        (event.data as { choices?: { finish_reason?: string | null }[] }).choices?.[0]
          ?.finish_reason,
    );
    if (!finish.some((reason) => reason === 'length' || reason === 'stop')) {
      // What CI shows when this fails: how the stream ended and what the services logged.
      console.log('faults: SIGTERM stream', {
        events: long.events.length,
        last: long.events.slice(-2),
        endedAfterMs: long.endedAt - signalledAt,
        log: output.slice(-4000),
      });
    }
    expect(finish).toContainEqual(expect.stringMatching(/^(length|stop)$/));
    expect(long.events.at(-1)?.data).toBe('[DONE]');
    expect(long.events.filter((event) => (event.data as { error?: unknown }).error)).toEqual([]);
    expect(long.endedAt - signalledAt).toBeLessThan(DRAIN_TIMEOUT_MS);
    const answer = await refused!;
    expectOpenAIError(answer, 503, {
      param: null,
      code: null,
      type: 'service_unavailable_error',
    });
    expect(answer.headers.get('retry-after')).not.toBeNull();
    await waitForRecovery('chat');
  }, 180_000);
});

function expectErrorEnd(
  result: { status: number; events: { data: unknown; at: number }[]; endedAt: number },
  killedAt: number,
): void {
  expect(result.status).toBe(200);
  expect(killedAt).toBeGreaterThan(0);
  const last = result.events.at(-1);
  expect(last?.data).toEqual({
    error: expect.objectContaining({ type: expect.any(String), message: expect.any(String) }),
  });
  expect(last!.at - killedAt).toBeLessThan(5_000);
  expect(result.endedAt - killedAt).toBeLessThan(5_000);
}

async function waitForRecovery(capability: Capability): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 240_000) {
    if ((await requests[capability]()).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${capability} did not recover within 240 s; launcher output:\n${output}`);
}

/** The pid of the capability's current process, from the launcher's last line about it. */
function pidOf(capability: Capability): number {
  const pattern = new RegExp(`tessera: ${capability} ready(?: again)? \\(pid (\\d+)\\)`, 'g');
  const matches = [...output.matchAll(pattern)];
  if (matches.length === 0) throw new Error(`no "${capability} ready" line:\n${output}`);
  return Number(matches[matches.length - 1][1]);
}

function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0;) {
    parents = table.filter(([, ppid]) => parents.includes(ppid)).map(([child]) => child);
    found.push(...parents);
  }
  return found;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; launcher output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
