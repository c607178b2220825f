/** @jest-environment ./libs/decoder/test/ort.environment.ts */
// Constrained jobs in the scheduler: each choice held to its grammar by its own matcher, beside
// free jobs, compiled before admission (a schema that does not compile fails its job alone), and
// every matcher freed however the job ends.
import { GREEDY, SchedulerHarness, text, until } from '../test/scheduler.harness';
import { TINY_LLAMA } from '../test/tiny-models';
import type { SchedulerLimits } from './continuous-batch.scheduler';
import type { GenerateJob } from './decoder.protocol';
import type { ConstraintCompiler, SequenceConstraint } from './grammar/constraint.contract';
import { XGrammarCompiler } from './grammar/grammar.compiler';
import { GrammarWorkerPool } from './grammar/grammar-worker.pool';
import { readEncodedVocab } from './grammar/tokenizer-vocab.reader';

const POEM = 'Write a short poem about the sea, the wind and the light on the water at dusk.';

describe('ContinuousBatchScheduler with a grammar constraint', () => {
  let harness: SchedulerHarness;
  let eos: readonly number[];
  let log: string[];
  let compiler: XGrammarCompiler;
  /** Every constraint handed out, with how often it was disposed. */
  let handed: { constraint: SequenceConstraint; disposed: number }[];
  const counting = (): Promise<ConstraintCompiler> =>
    Promise.resolve({
      constraints: async (constraint, count) => {
        const made = await compiler.constraints(constraint, count);
        for (const constraint of made.sequences) {
          const entry = { constraint, disposed: 0 };
          const dispose = constraint.dispose.bind(constraint);
          constraint.dispose = () => {
            entry.disposed++;
            dispose();
          };
          handed.push(entry);
        }
        return made;
      },
    });

  beforeAll(async () => {
    harness = await SchedulerHarness.load();
    ({ eos, log } = harness);
    const vocab = await readEncodedVocab(TINY_LLAMA);
    compiler = await XGrammarCompiler.create({ vocab, vocabSize: 49152, eosTokenIds: eos });
  });
  afterAll(() => {
    compiler.dispose();
    return harness.session.release();
  });
  beforeEach(() => {
    handed = [];
    log.length = 0;
  });

  const scheduler = (
    limits: Partial<SchedulerLimits> = {},
    grammar?: () => Promise<ConstraintCompiler>,
  ) => harness.scheduler(limits, grammar);
  const job = (content: string, extra: Partial<GenerateJob> = {}) => harness.job(content, extra);
  const start: SchedulerHarness['start'] = (...args) => harness.start(...args);

  const SCHEMA = {
    type: 'object',
    properties: {
      kind: { enum: ['cat', 'dog'] },
      legs: { type: 'integer', minimum: 0, maximum: 8 },
      tags: { type: 'array', items: { enum: ['x', 'y'] }, maxItems: 2 },
      ok: { type: 'boolean' },
    },
    required: ['kind', 'legs', 'tags', 'ok'],
    additionalProperties: false,
  };
  const constrained = (extra: Partial<GenerateJob> = {}) =>
    job('Describe a pet.', {
      constraint: { type: 'json_schema', schema: JSON.stringify(SCHEMA) },
      maxTokens: 60,
      ...extra,
    });
  const valid = (text: string) => {
    const value = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(value).sort()).toEqual(['kind', 'legs', 'ok', 'tags']);
    expect(['cat', 'dog']).toContain(value.kind);
    expect(Number.isInteger(value.legs) && (value.legs as number) <= 8).toBe(true);
    expect(typeof value.ok).toBe('boolean');
    expect((value.tags as unknown[]).every((t) => t === 'x' || t === 'y')).toBe(true);
  };

  it('holds every sampled choice to the schema, each with its own matcher, beside a free job', async () => {
    const target = scheduler({}, counting);
    const free = start(target, job(POEM, { maxTokens: 30 }), 'free');
    const run = start(
      target,
      constrained({ n: 3, sampling: { ...GREEDY, temperature: 1, topP: 0.9, seed: 3 } }),
      'json',
    );
    await Promise.all([free.done, run.done]);
    expect(run.events[0]).toMatchObject({ type: 'grammar', cacheHit: false });
    for (let choice = 0; choice < 3; choice++) {
      valid(text(run.events, choice));
      expect(run.events).toContainEqual(
        expect.objectContaining({ type: 'finish', choice, reason: 'stop' }),
      );
    }
    expect(text(free.events)).not.toBe('');
    expect(handed).toHaveLength(3);
    for (const entry of handed) expect(entry.disposed).toBeGreaterThanOrEqual(1);
  });

  it('reuses the compiled grammar and gives the same seeded output again', async () => {
    const request = constrained({ sampling: { ...GREEDY, temperature: 1, seed: 11 } });
    const first = start(scheduler({}, counting), request);
    await first.done;
    const second = start(scheduler({}, counting), request);
    await second.done;
    expect(second.events[0]).toEqual({ type: 'grammar', cacheHit: true, compileMs: 0 });
    expect(text(second.events)).toBe(text(first.events));
    valid(text(first.events));
  });

  it('ends with length when max_tokens comes before the value is complete', async () => {
    const run = start(scheduler({}, counting), constrained({ maxTokens: 3 }));
    await run.done;
    expect(run.events.at(-1)).toMatchObject({ type: 'finish', reason: 'length' });
    const partial = text(run.events);
    expect(partial).not.toBe('');
    expect(['{"kind": "cat", ', '{"kind": "dog", '].some((v) => v.startsWith(partial))).toBe(true);
    expect(handed[0].disposed).toBeGreaterThanOrEqual(1);
  });

  it('frees the matchers of a cancelled job', async () => {
    const run = start(scheduler({}, counting), constrained({ n: 2 }));
    await until(() => run.events.some((e) => e.type === 'delta'));
    run.controller.abort(new Error('gone'));
    await expect(run.done).rejects.toThrow('gone');
    expect(handed).toHaveLength(2);
    for (const entry of handed) expect(entry.disposed).toBeGreaterThanOrEqual(1);
  });

  it('fails a job whose schema does not compile, and only that job', async () => {
    const target = scheduler({}, counting);
    const bad = start(
      target,
      job('x', { constraint: { type: 'json_schema', schema: '{"type":"strin"}' } }),
    );
    const good = start(target, constrained());
    await expect(bad.done).rejects.toMatchObject({ name: 'GrammarCompileError' });
    await good.done;
    valid(text(good.events));
  });

  it('keeps decoding free and constrained requests while a new schema compiles', async () => {
    const pool = new GrammarWorkerPool({
      modelDir: TINY_LLAMA,
      vocabSize: 49152,
      eosTokenIds: eos,
    });
    try {
      const target = scheduler({}, () => Promise.resolve(pool));
      const json = start(target, constrained(), 'json');
      await until(() => json.events.some((e) => e.type === 'delta'));
      // Compiles for seconds in one call that cannot be sliced (the gateway refuses it).
      const slowSchema = JSON.stringify({ type: 'string', minLength: 100_000 });
      const slow = start(
        target,
        job('x', { constraint: { type: 'json_schema', schema: slowSchema } }),
        'slow',
      );
      const free = start(target, job(POEM, { maxTokens: 30 }), 'free');
      await Promise.all([json.done, free.done]);
      // Every step of both ran while the compile was still going.
      expect(free.events.filter((e) => e.type === 'delta').length).toBeGreaterThan(10);
      valid(text(json.events));
      expect(log).toContain('free:finish');
      expect(log).not.toContain('slow:grammar');
      expect(slow.events).toEqual([]);
    } finally {
      pool.close();
    }
  });

  it('refuses a constraint when the engine has no grammar engine', async () => {
    await expect(start(scheduler(), constrained()).done).rejects.toThrow(/no grammar engine/);
  });
});
