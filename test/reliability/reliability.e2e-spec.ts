// The reliability suite (docs/reliability.md): one launched fixture stack (separate processes,
// restarted by the launcher when they die) with a YAML keys file, traces exported to a tiny OTLP
// receiver and a usage log, then, in order: the auth matrix, schema fuzzing with schemathesis,
// 200 concurrent chat streams, a mixed load over all five capabilities, each service killed
// under load, the gateway killed under load (the usage log must hold every completed request
// once), and a search of everything the stack wrote for the raw keys. The figures go to
// bench/results/reliability.json.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';
import { expectOpenAIError } from '../support/openai-error.expect';
import { testAudio } from '../support/transcription-stack';
import { LaunchedStack } from '../tracing/launched-stack';
import { routeCases, sendRoute } from './auth-matrix';
import { CAPABILITIES, send, type Capability, type Client, type Outcome } from './capabilities';
import { EMBED_KEY, EMBED_ONLY_MODEL, FULL_KEY, WRONG_KEY, writeKeysFile } from './keys';
import { Load, failures, tally } from './load';
import { OtlpReceiver } from './otlp-receiver';
import { RssSampler } from './rss';
import { runSchemathesis } from './schemathesis';

/** Knobs for a quicker local run; the defaults are what the issue asks for (and CI runs). */
function setting(name: string, fallback: number): number {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
}
const STREAMS = setting('TESSERA_RELIABILITY_STREAMS', 200);
const STREAM_SECONDS = setting('TESSERA_RELIABILITY_STREAM_SECONDS', 60);
const MIXED_SECONDS = setting('TESSERA_RELIABILITY_MIXED_SECONDS', 30);
const SCHEMA_MIN_CASES = setting('TESSERA_RELIABILITY_SCHEMA_CASES', 5000);
/** Per operation; schemathesis stops early on an operation with little to vary (GET /models). */
const SCHEMA_MAX_EXAMPLES = setting('TESSERA_RELIABILITY_SCHEMA_EXAMPLES', 1000);
const SCHEMA_MAX_SECONDS = setting('TESSERA_RELIABILITY_SCHEMA_SECONDS', 240);
/** No process of the stack may grow past this under load (fixture models: tens of MiB each). */
const RSS_LIMIT_MIB = setting('TESSERA_RELIABILITY_RSS_LIMIT_MIB', 1536);
/**
 * A killed service must serve again within this: launcher backoff, model load and warm-up, and
 * the first request waiting behind the load's. On a busy 2-core machine the transcription
 * service, loading two Whisper models under the others' load, took 80 s for the first one.
 */
const RECOVERY_LIMIT_MS = 240_000;
/** The stack's upstream deadline (see beforeAll); clients wait a little longer. */
const REQUEST_TIMEOUT_MS = 180_000;

/**
 * The mixed load. One transcription client: the fixture Whisper decodes noise up to its token
 * limit, seconds of CPU per request on a 2-core machine, which the other capabilities share.
 */
const MIX = { chat: 8, embeddings: 4, moderation: 4, speech: 2, transcription: 1 };
const FAULT_MIX = { chat: 4, embeddings: 2, moderation: 2, speech: 1, transcription: 1 };

const results: Record<string, unknown> = { startedAt: new Date().toISOString() };
const errorBodies: string[] = [];

let dir: string;
let usageLog: string;
let receiver: OtlpReceiver;
let stack: LaunchedStack;
let client: Client;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-reliability-'));
  usageLog = path.join(dir, 'usage.jsonl');
  receiver = await OtlpReceiver.start();
  const started = Date.now();
  stack = await LaunchedStack.start({
    TESSERA_API_KEYS_FILE: writeKeysFile(dir),
    TESSERA_USAGE_LOG: usageLog,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '200',
    // The upstream deadline, 60 s by default, raised: on a 2-core machine shared with other work
    // a fixture transcription under load can take longer (30-60 s at a load average of 15), and
    // a 504 then says nothing about the faults this suite is after. The deadline itself is
    // tested in test/gateway.e2e-spec.ts and test/chat.e2e-spec.ts.
    TESSERA_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  results.stackStartSeconds = Math.round((Date.now() - started) / 1000);
  client = { baseURL: stack.baseURL, key: FULL_KEY, audio: await testAudio('wav', 1) };
}, 480_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  results.finishedAt = new Date().toISOString();
  const out = path.join(repoRoot(), 'bench/results/reliability.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/**
 * What `outcomes` of one capability may be while it is down: 503 with Retry-After, a chat stream
 * ended by an error event, or speech's raw audio aborted mid-body (a request whose audio had
 * started when the service died: aborting is the only way to tell a file reader it is short).
 */
function unexpectedWhileDown(outcomes: Outcome[]): Outcome[] {
  return outcomes.filter(
    (o) =>
      !(
        o.kind === 'ok' ||
        o.kind === 'stream_error' ||
        (o.kind === 'cut' && o.capability === 'speech') ||
        (o.kind === '503' && o.openAIErrorBody && o.retryAfter)
      ),
  );
}

function keepErrorBodies(outcomes: Outcome[]): void {
  for (const outcome of outcomes) if (outcome.detail) errorBodies.push(outcome.detail);
}

describe('auth matrix: every route without a key, with a wrong key, with a key for another model', () => {
  // A tenth of a second of audio (3 KiB), sent whole before the answer comes: the gateway
  // answers a 401 before reading the body and then closes the connection without reading it
  // (gateway.hooks.ts), so a client still writing a larger upload sees EPIPE instead of the 401.
  let audio: Buffer;
  beforeAll(async () => (audio = await testAudio('wav', 0.1)));
  const cases = () => routeCases(audio);

  it.each(routeCases(Buffer.alloc(0)).map((route) => route.name))('%s', async (name) => {
    const route = cases().find((candidate) => candidate.name === name)!;
    const missing = await sendRoute(stack.baseURL, route, null);
    expectOpenAIError(missing, 401, { param: null, code: 'invalid_api_key' });
    const wrong = await sendRoute(stack.baseURL, route, `Bearer ${WRONG_KEY}`);
    expectOpenAIError(wrong, 401, { param: null, code: 'invalid_api_key' });
    expect(wrong.text).not.toContain(WRONG_KEY);
    const other = await sendRoute(stack.baseURL, route, `Bearer ${EMBED_KEY}`);
    if (route.path === '/models') {
      // The list is not a model of its own: it lists only the key's model.
      expect(other.status).toBe(200);
      const ids = (other.body as { data: { id: string }[] }).data.map((model) => model.id);
      expect(ids).toEqual([EMBED_ONLY_MODEL]);
    } else {
      expectOpenAIError(other, 404, { param: 'model', code: 'model_not_found' });
    }
    errorBodies.push(missing.text, wrong.text, other.text);
  });

  it('the limited key still uses its own model, by id and by alias', async () => {
    for (const model of [EMBED_ONLY_MODEL, 'text-embedding-3-small']) {
      const response = await fetch(`${stack.baseURL}/embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${EMBED_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: 'hi' }),
      });
      expect(response.status).toBe(200);
    }
  });
});

describe('schema fuzzing (schemathesis, the official OpenAI spec)', () => {
  it(`≥ ${SCHEMA_MIN_CASES} cases, no 5xx, every 4xx the OpenAI error body, responses as the spec says`, async () => {
    const run = await runSchemathesis({
      baseURL: stack.baseURL,
      key: FULL_KEY,
      reportDir: path.join(dir, 'schemathesis'),
      maxExamples: SCHEMA_MAX_EXAMPLES,
      maxSeconds: SCHEMA_MAX_SECONDS,
      seed: 14,
    });
    const { output, ...figures } = run;
    results.schemathesis = figures;
    const serverErrors = Object.values(run.statuses).flatMap((row) =>
      Object.entries(row).filter(([status]) => Number(status) >= 500),
    );
    expect({ failures: run.failures, errors: run.errors, tail: output.slice(-4000) }).toEqual({
      failures: [],
      errors: [],
      tail: expect.any(String),
    });
    expect(serverErrors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.cases).toBeGreaterThanOrEqual(SCHEMA_MIN_CASES);
  }, 600_000);
});

describe('load', () => {
  it(
    `${STREAMS} concurrent chat streams for ${STREAM_SECONDS} s: none dropped, none malformed, RSS bounded`,
    async () => {
      const rss = new RssSampler(() => stack.processes());
      const started = Date.now();
      const load = new Load(client).start({ chat: STREAMS }, STREAM_SECONDS * 1000);
      await load.done;
      const seconds = (Date.now() - started) / 1000;
      const memory = rss.stop();
      const counts = tally(load.outcomes);
      results.chatStreams = {
        concurrency: STREAMS,
        seconds: Math.round(seconds),
        streams: load.outcomes.length,
        streamsPerSecond: Math.round((load.outcomes.length / seconds) * 10) / 10,
        outcomes: counts,
        rss: memory,
      };
      keepErrorBodies(load.outcomes);
      expect(failures(load.outcomes)).toEqual([]);
      expect(load.outcomes.length).toBeGreaterThanOrEqual(STREAMS);
      for (const [name, summary] of Object.entries(memory)) {
        expect({ name, peakMiB: summary.peakMiB < RSS_LIMIT_MIB }).toEqual({ name, peakMiB: true });
      }
    },
    (STREAM_SECONDS + 120) * 1000,
  );

  it(
    `a mixed load over all five capabilities for ${MIXED_SECONDS} s`,
    async () => {
      const rss = new RssSampler(() => stack.processes());
      const load = new Load(client).start(MIX, MIXED_SECONDS * 1000);
      await load.done;
      const memory = rss.stop();
      const counts = tally(load.outcomes);
      results.mixed = {
        seconds: MIXED_SECONDS,
        requests: load.outcomes.length,
        outcomes: counts,
        rss: memory,
      };
      keepErrorBodies(load.outcomes);
      expect(failures(load.outcomes)).toEqual([]);
      for (const capability of CAPABILITIES) expect(counts[capability]?.ok).toBeGreaterThan(0);
      for (const [name, summary] of Object.entries(memory)) {
        expect({ name, peakMiB: summary.peakMiB < RSS_LIMIT_MIB }).toEqual({ name, peakMiB: true });
      }
    },
    (MIXED_SECONDS + 120) * 1000,
  );
});

/** Until one request of `capability` succeeds; the time it took from `since`. */
async function firstSuccess(capability: Capability, since: number): Promise<number> {
  for (;;) {
    const outcome = await send(capability, client, REQUEST_TIMEOUT_MS + 10_000);
    if (outcome.kind === 'ok') return outcome.at - since;
    if (Date.now() - since > RECOVERY_LIMIT_MS) {
      const launcher = stack.log.split('\n').filter((line) => line.startsWith('tessera: '));
      throw new Error(
        `${capability} did not recover: last ${JSON.stringify(outcome)}\n${launcher.join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Until the launcher reports `name` ready again under a pid other than `pid`; ms since `since`. */
async function restarted(name: string, pid: number, since: number): Promise<number> {
  const deadline = since + RECOVERY_LIMIT_MS;
  while (stack.processes().get(name)?.pid === pid) {
    if (Date.now() > deadline)
      throw new Error(`${name} was not restarted:\n${stack.log.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - since;
}

describe('faults: each service killed (SIGKILL) under load', () => {
  const recoveries: Record<string, unknown> = {};
  afterAll(() => (results.serviceKills = recoveries));

  it.each([...CAPABILITIES])(
    '%s: 503 + Retry-After meanwhile, restarted, recovers; the others unaffected',
    async (capability) => {
      const load = new Load(client).start(FAULT_MIX, 180_000);
      let recoveryMs!: number;
      let restartMs!: number;
      // Stopped however the test ends: a load left running would fall on the next test.
      try {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const { pid } = stack.processes().get(capability)!;
        const killedAt = Date.now();
        process.kill(pid, 'SIGKILL');
        [recoveryMs, restartMs] = await Promise.all([
          firstSuccess(capability, killedAt),
          restarted(capability, pid, killedAt),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      } finally {
        await load.stop();
      }
      keepErrorBodies(load.outcomes);
      const own = load.outcomes.filter((o) => o.capability === capability);
      const others = load.outcomes.filter((o) => o.capability !== capability);
      recoveries[capability] = {
        recoverySeconds: Math.round(recoveryMs / 100) / 10,
        readyAgainSeconds: Math.round(restartMs / 100) / 10,
        outcomes: tally(load.outcomes),
      };
      expect(unexpectedWhileDown(own).slice(0, 5)).toEqual([]);
      expect(failures(others)).toEqual([]);
      // Recovery itself is what firstSuccess saw (a 200 from a request sent after the kill).
      expect(recoveryMs).toBeGreaterThan(0);
    },
    360_000,
  );
});

interface UsageLine {
  requestId: string;
  keyId: string | null;
}

function readUsageLog(): UsageLine[] {
  return fs
    .readFileSync(usageLog, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as UsageLine);
}

describe('the gateway killed (SIGKILL) under load', () => {
  it('restarts, and the usage log holds every request a client saw complete, once', async () => {
    const load = new Load(client).start(MIX, 180_000);
    let restartMs!: number;
    let recoveryMs!: number;
    try {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const { pid } = stack.processes().get('gateway')!;
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      restartMs = await restarted('gateway', pid, killedAt);
      recoveryMs = await firstSuccess('embeddings', killedAt);
      await new Promise((resolve) => setTimeout(resolve, 3000));
    } finally {
      await load.stop();
    }

    const completed = load.outcomes.filter((o) => o.kind === 'ok').map((o) => o.requestId);
    const logged = readUsageLog().map((line) => line.requestId);
    const loggedOnce = new Set(logged);
    const ours = new Set(load.outcomes.map((o) => o.requestId));
    results.gatewayKill = {
      readyAgainSeconds: Math.round(restartMs / 100) / 10,
      recoverySeconds: Math.round(recoveryMs / 100) / 10,
      outcomes: tally(load.outcomes),
      completed: completed.length,
      usageRecords: logged.length,
      // Billed before the last byte, so a request cut by the kill may be billed unseen.
      billedNotSeenComplete: [...loggedOnce].filter((id) => ours.has(id) && !completed.includes(id))
        .length,
    };
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.filter((id) => !loggedOnce.has(id))).toEqual([]);
    expect(logged.length).toBe(loggedOnce.size);
  }, 360_000);
});

describe('keys never in logs, metrics, traces or error bodies', () => {
  it('no raw key anywhere the stack wrote', async () => {
    // Let the exporters' batch interval pass.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const metrics: string[] = [];
    for (const { name, metricsOrigin } of stack.processes().values()) {
      const response = await fetch(`${metricsOrigin}/metrics`);
      expect({ name, status: response.status }).toEqual({ name, status: 200 });
      metrics.push(await response.text());
    }
    const places: Record<string, string> = {
      'stdout and stderr': stack.log,
      metrics: metrics.join('\n'),
      'usage log': fs.existsSync(usageLog) ? fs.readFileSync(usageLog, 'utf8') : '',
      spans: Buffer.concat(receiver.bodies).toString('latin1'),
      'error bodies': errorBodies.join('\n'),
    };
    results.leakCheck = Object.fromEntries(
      Object.entries(places).map(([place, text]) => [place, { bytes: text.length }]),
    );
    // Nothing searched may be empty, or the search proves nothing.
    for (const [place, text] of Object.entries(places)) {
      expect({ place, empty: text.length === 0 }).toEqual({ place, empty: false });
    }
    for (const key of [FULL_KEY, EMBED_KEY, WRONG_KEY]) {
      const found = Object.entries(places)
        .filter(([, text]) => text.includes(key))
        .map(([place]) => place);
      expect({ key, found }).toEqual({ key, found: [] });
    }
    // The key ids are what they name instead.
    expect(places['usage log']).toContain('reliability-full');
  });
});
