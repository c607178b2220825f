// Hostile input beside a canary (docs/reliability.md, "Hostile input"): on the launched fixture
// stack, requests that once wedged a model or stalled the gateway, each sent while a canary of
// another capability's requests runs every half second. A case passes when its hostile requests
// get the answer the docs promise AND every canary request of that case came back whole before
// its deadline; each case's canary latencies are printed and written to
// bench/results/reliability-hostile.json.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';
import { expectOpenAIError } from '../support/openai-error.expect';
import { testAudio } from '../support/transcription-stack';
import { LaunchedStack } from '../tracing/launched-stack';
import { send, type Capability, type Client, type Outcome } from './capabilities';
import { RssSampler } from './rss';

const KEY = 'tsk-hostile-test';
/** A canary request that takes longer than this fails its case (normally tens of ms). */
const CANARY_DEADLINE_MS = 15_000;
const CANARY_INTERVAL_MS = 500;
/** A canary runs this long at least, so that a stall just after a quick refusal is seen. */
const CANARY_MIN_MS = 5_000;
/** The gateway's resident memory under the moderation flood (it reached 3 GB unbounded). */
const GATEWAY_RSS_LIMIT_MIB = 768;

let stack: LaunchedStack;
let client: Client;
const results: Record<string, unknown> = { startedAt: new Date().toISOString() };

beforeAll(async () => {
  stack = await LaunchedStack.start({ TESSERA_API_KEYS: KEY });
  client = { baseURL: stack.baseURL, key: KEY, audio: await testAudio('wav', 1) };
}, 480_000);

afterAll(async () => {
  await stack?.stop();
  const out = path.join(repoRoot(), 'bench/results/reliability-hostile.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
}, 60_000);

/** One request of `capability` every half second until stopped, each with its latency. */
class Canary {
  private readonly sent: Promise<{ outcome: Outcome; ms: number }>[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(capability: Capability) {
    const fire = () => {
      const started = Date.now();
      this.sent.push(
        send(capability, client, CANARY_DEADLINE_MS).then((outcome) => ({
          outcome,
          ms: Date.now() - started,
        })),
      );
    };
    fire();
    this.timer = setInterval(fire, CANARY_INTERVAL_MS);
  }

  /** Stops firing and waits for every request sent; the failures and the latency summary. */
  async stop(): Promise<{ failed: Outcome[]; summary: Record<string, number> }> {
    clearInterval(this.timer);
    const answers = await Promise.all(this.sent);
    const ms = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
    return {
      failed: answers.map((answer) => answer.outcome).filter((outcome) => outcome.kind !== 'ok'),
      summary: { requests: ms.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: ms[ms.length - 1] },
    };
  }
}

/** Runs `attack` beside a canary of `canaryCapability`; the canary must stay whole. */
async function besideCanary(
  name: string,
  canaryCapability: Capability,
  attack: () => Promise<void>,
): Promise<void> {
  const canary = new Canary(canaryCapability);
  const started = Date.now();
  try {
    await attack();
    const left = CANARY_MIN_MS - (Date.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  } finally {
    const { failed, summary } = await canary.stop();
    results[name] = { canary: canaryCapability, ...summary };
    process.stdout.write(`hostile: ${name}: canary ${JSON.stringify(summary)}\n`);
    expect(failed).toEqual([]);
  }
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

async function post(route: string, body: string | object): Promise<Answer> {
  const response = await fetch(`${stack.baseURL}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

const chat = (extra: object) =>
  post('/chat/completions', {
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Count to three.' }],
    max_tokens: 4,
    ...extra,
  });

describe('a seed past 2^53', () => {
  it.each([2 ** 53, -(2 ** 53), '9223372036854775807'])(
    'seed %s: n = 8 twice at once, then the model still serves',
    async (seed) => {
      await besideCanary(`seed ${seed}`, 'embeddings', async () => {
        // A JSON integer past 2^53 is written as is (the string case): int64's maximum.
        const body = (n: number) =>
          JSON.stringify({
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'Count to three.' }],
            max_tokens: 4,
            n,
            seed: 0,
          }).replace('"seed":0', `"seed":${seed}`);
        const seeded = await Promise.all([
          post('/chat/completions', body(8)),
          post('/chat/completions', body(8)),
        ]);
        for (const answer of seeded) {
          expect(answer.status).toBe(200);
          expect((answer.body as { choices: unknown[] }).choices).toHaveLength(8);
        }
        expect((await chat({ n: 8 })).status).toBe(200);
      });
    },
    120_000,
  );
});

describe('moderation arrays', () => {
  it('32 concurrent 1 MB bodies of 200,000 inputs: 400 at the edge, the gateway stays small', async () => {
    const rss = new RssSampler(() => stack.processes(), 250);
    const body = JSON.stringify({
      model: 'omni-moderation-latest',
      input: Array.from({ length: 200_000 }, () => 'hi'),
    });
    await besideCanary('moderation arrays', 'embeddings', async () => {
      const answers = await Promise.all(
        Array.from({ length: 32 }, () => post('/moderations', body)),
      );
      for (const answer of answers) {
        expectRefused(answer, 'input');
      }
    });
    const memory = rss.stop();
    results.moderationArraysRss = memory;
    expect(memory.gateway?.peakMiB).toBeLessThan(GATEWAY_RSS_LIMIT_MIB);
  }, 180_000);
});

describe('many messages', () => {
  it('500,000 empty system messages: 400 at the edge, the model serves others meanwhile', async () => {
    const messages = `[${Array.from({ length: 500_000 }, () => '{"role":"system","content":""}').join(',')}]`;
    const body = `{"model":"gpt-4o-mini","max_tokens":4,"messages":${messages}}`;
    await besideCanary('many messages', 'embeddings', async () => {
      const [flood, other] = await Promise.all([post('/chat/completions', body), chat({})]);
      expectRefused(flood, 'messages');
      expect(other.status).toBe(200);
    });
  }, 180_000);
});

describe('a frozen service', () => {
  it('embeddings stopped (SIGSTOP): 503 with Retry-After once the gateway knows, served after SIGCONT', async () => {
    const { pid } = stack.processes().get('embeddings')!;
    const gateway = stack.processes().get('gateway')!;
    await besideCanary('frozen embeddings', 'moderation', async () => {
      process.kill(pid, 'SIGSTOP');
      let answer: Answer;
      try {
        await until(async () => {
          const ready = await fetch(`${gateway.httpOrigin}/readyz`);
          const detail = (await ready.json()) as { details?: Record<string, { status: string }> };
          return detail.details?.embeddings?.status === 'down';
        });
        answer = await post('/embeddings', { model: 'text-embedding-3-small', input: 'frozen' });
      } finally {
        // Resumed only once the answer came: it did not wait for the service.
        process.kill(pid, 'SIGCONT');
      }
      expectOpenAIError(answer, 503, {
        param: null,
        code: null,
        type: 'service_unavailable_error',
      });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      await until(async () => (await send('embeddings', client)).kind === 'ok');
    });
  }, 180_000);
});

/** A 400 in the OpenAI error shape naming `param` (its code is the edge's to choose). */
function expectRefused(answer: Answer, param: string): void {
  const { code } = (answer.body as { error?: { code?: string | null } } | undefined)?.error ?? {};
  expectOpenAIError(answer, 400, { param, code: code ?? null });
}

async function until(condition: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out; stack output:\n${stack.log.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
