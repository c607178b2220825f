/** @jest-environment ./libs/decoder/test/ort.environment.ts */
import { join } from 'node:path';
import { InferenceSession } from 'onnxruntime-node';
import { GREEDY, SchedulerHarness, logprobs, text, until } from '../test/scheduler.harness';
import { TINY_LLAMA } from '../test/tiny-models';
import type { SchedulerLimits } from './continuous-batch.scheduler';
import { readDecoderConfig } from './decoder.config';
import type { GenerateJob } from './decoder.protocol';
import { DecoderSession } from './decoder.session';
import type { ConstraintCompiler } from './grammar/constraint.contract';
import * as sampling from './sampling';

describe('ContinuousBatchScheduler', () => {
  let harness: SchedulerHarness;
  let session: DecoderSession;
  let eos: readonly number[];
  let log: string[];

  beforeAll(async () => {
    harness = await SchedulerHarness.load();
    ({ session, eos, log } = harness);
  });
  afterAll(() => session.release());
  beforeEach(() => (log.length = 0));

  const scheduler = (
    limits: Partial<SchedulerLimits> = {},
    grammar?: () => Promise<ConstraintCompiler>,
    on?: DecoderSession,
  ) => harness.scheduler(limits, grammar, on);
  const job = (content: string, extra: Partial<GenerateJob> = {}) => harness.job(content, extra);
  const start: SchedulerHarness['start'] = (...args) => harness.start(...args);

  const PROMPTS = [
    'Hi',
    'What is the capital of France? Answer in one word, please.',
    'Write a short poem about the sea, the wind and the light on the water at dusk.',
  ];

  it('gives each prompt the same greedy output alone as in a batch that others join and leave', async () => {
    const alone = [];
    for (const prompt of PROMPTS) {
      const run = start(scheduler(), job(prompt));
      await run.done;
      alone.push(run.events);
    }
    const batched = scheduler();
    // Different lengths, joining at different steps; the shortest also leaves first.
    const b = start(batched, job(PROMPTS[1], { maxTokens: 20 }));
    await until(() => b.events.length >= 3);
    const a = start(batched, job(PROMPTS[0], { maxTokens: 12 }));
    await until(() => a.events.length >= 2);
    const c = start(batched, job(PROMPTS[2], { maxTokens: 12 }));
    await Promise.all([a.done, b.done, c.done]);
    for (const [i, run] of [a, b, c].entries()) {
      const expected = alone[i];
      const got = i === 1 ? run.events.slice(0, expected.length - 1) : run.events;
      expect(text(got)).toBe(text(expected.slice(0, got.length)));
      const want = logprobs(expected).slice(0, logprobs(got).length);
      logprobs(got).forEach((logprob, k) => expect(logprob).toBeCloseTo(want[k], 4));
    }
    expect(text(a.events)).not.toBe('');
  });

  it('gives a seeded sampled request the same tokens alone and in a batch', async () => {
    const sampled = { ...GREEDY, temperature: 1.5, seed: 7 };
    const request = job(PROMPTS[1], { sampling: sampled, n: 2, maxTokens: 16 });
    const alone = start(scheduler(), request);
    await alone.done;
    const target = scheduler();
    const other = start(
      target,
      job(PROMPTS[2], { sampling: { ...sampled, seed: 8 }, maxTokens: 30 }),
    );
    await until(() => other.events.length >= 4);
    const again = start(target, request);
    await Promise.all([again.done, other.done]);
    for (const choice of [0, 1])
      expect(text(again.events, choice)).toBe(text(alone.events, choice));
    // The two choices drew from different streams of the seed.
    expect(text(alone.events, 0)).not.toBe(text(alone.events, 1));
  });

  it('ends a choice at max tokens with length, and at an end-of-sequence token with stop', async () => {
    const target = scheduler();
    const long = start(target, job('Hello', { maxTokens: 5 }));
    // logit_bias makes the end-of-sequence token the only choice.
    const ended = start(
      target,
      job('Hello', { sampling: { ...GREEDY, logitBias: { [eos[0]]: 100 } } }),
    );
    await expect(long.done).resolves.toEqual({
      promptTokens: expect.any(Number),
      completionTokens: 5,
    });
    expect(long.events.at(-1)).toEqual({
      type: 'finish',
      choice: 0,
      reason: 'length',
      completionTokens: 5,
    });
    await expect(ended.done).resolves.toMatchObject({ completionTokens: 1 });
    expect(ended.events).toEqual([
      { type: 'finish', choice: 0, reason: 'stop', completionTokens: 1 },
    ]);
  });

  it('tells with each delta the tokens it accounts for: they add up to the finish’s count', async () => {
    // Stopped by length, nothing is held back: every token is in some delta (what a stream the
    // client leaves is billed by).
    const run = start(scheduler(), job(PROMPTS[2], { n: 2, maxTokens: 9 }));
    await run.done;
    for (const choice of [0, 1]) {
      const deltas = run.events.filter((e) => e.type === 'delta' && e.choice === choice);
      const reported = deltas.reduce((sum, e) => sum + (e.type === 'delta' ? e.tokens! : 0), 0);
      expect(deltas.length).toBeGreaterThan(0);
      expect(reported).toBe(9);
    }
  });

  it('prefills the prompt of n choices once, in chunks', async () => {
    const prefill = jest.spyOn(session, 'prefill');
    const request = job(PROMPTS[2], { n: 3, maxTokens: 6 });
    const target = scheduler({ prefillChunkTokens: 16 });
    const run = start(target, request);
    await expect(run.done).resolves.toEqual({
      promptTokens: request.promptIds.length,
      completionTokens: 18,
    });
    // Every prompt token but the last (the first decode input), 16 at a time.
    expect(prefill).toHaveBeenCalledTimes(Math.ceil((request.promptIds.length - 1) / 16));
    prefill.mockRestore();
    const finishes = run.events.filter((e) => e.type === 'finish');
    expect(finishes.map((e) => e.choice).sort()).toEqual([0, 1, 2]);
    // Greedy: every choice is the same text, and the same as one choice prefilled at once.
    const single = start(scheduler(), job(PROMPTS[2], { maxTokens: 6 }));
    await single.done;
    for (const choice of [0, 1, 2]) expect(text(run.events, choice)).toBe(text(single.events));
  });

  it('prefills prompts that arrive together in one run, each decoding as alone', async () => {
    const alone = [];
    for (const prompt of PROMPTS) {
      const run = start(scheduler(), job(prompt));
      await run.done;
      alone.push(text(run.events));
    }
    const prefillRows = jest.spyOn(session, 'prefillRows');
    const prefill = jest.spyOn(session, 'prefill');
    const target = scheduler();
    const runs = PROMPTS.map((prompt) => start(target, job(prompt)));
    await Promise.all(runs.map((run) => run.done));
    expect(prefillRows).toHaveBeenCalledTimes(1);
    expect(prefillRows.mock.calls[0][1]).toHaveLength(PROMPTS.length);
    expect(prefill).not.toHaveBeenCalled();
    prefillRows.mockRestore();
    prefill.mockRestore();
    expect(runs.map((run) => text(run.events))).toEqual(alone);
  });

  it('frees a cancelled sequence’s slot within one step', async () => {
    const target = scheduler({ maxSequences: 1 });
    const decode = jest.spyOn(session, 'decode');
    const first = start(target, job('Hello', { maxTokens: 1000 }), 'first');
    await until(() => first.events.length >= 3);
    const second = start(target, job('Hi', { maxTokens: 3 }), 'second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).not.toContain('second:delta');
    const stepsBefore = decode.mock.calls.length;
    first.controller.abort(new Error('client went away'));
    await expect(first.done).rejects.toThrow('client went away');
    await until(() => second.events.length > 0);
    // At most the step already running when the cancel came; then the slot went to `second`.
    expect(decode.mock.calls.length - stepsBefore).toBeLessThanOrEqual(1);
    await second.done;
    decode.mockRestore();
    expect(target.activeSequences).toBe(0);
  });

  it('fails only the request whose sampling fails', async () => {
    const real = sampling.createSequenceSampler;
    const spy = jest.spyOn(sampling, 'createSequenceSampler').mockImplementation((init) =>
      init.options.seed === 13
        ? {
            next: () => {
              throw new Error('every token is banned');
            },
          }
        : real(init),
    );
    const target = scheduler();
    const good = start(target, job('Hi', { maxTokens: 6 }));
    const bad = start(target, job('Hi', { sampling: { ...GREEDY, seed: 13 } }));
    await expect(bad.done).rejects.toThrow('every token is banned');
    await expect(good.done).resolves.toMatchObject({ completionTokens: 6 });
    spy.mockRestore();
  });

  it('admits jobs within the KV budget, in order, and one larger than it alone', async () => {
    const small = job('Hi', { maxTokens: 4 });
    const cost = small.promptIds.length + small.maxTokens;
    const target = scheduler({ kvCacheTokens: cost + 1 });
    const one = start(target, small, 'one');
    const two = start(target, small, 'two');
    await Promise.all([one.done, two.done]);
    // `two` waited for `one` to give its reservation back.
    expect(log.indexOf('two:delta')).toBeGreaterThan(log.indexOf('one:finish'));
    const huge = start(target, job('Hi', { maxTokens: 4, n: 2 }));
    await expect(huge.done).resolves.toMatchObject({ completionTokens: 8 });
  });

  describe('on an int4 graph (MatMulNBits computes a lone row differently)', () => {
    let int4: DecoderSession;
    /** input_ids dims of every run of the int4 graph. */
    let runs: number[][];

    beforeAll(async () => {
      const config = await readDecoderConfig(TINY_LLAMA, 'onnx/model_q4.onnx');
      int4 = await DecoderSession.open(join(TINY_LLAMA, config.onnxFile), config, async (path) => {
        const ort = await InferenceSession.create(path);
        const run = ort.run.bind(ort) as (
          ...args: unknown[]
        ) => Promise<InferenceSession.ReturnType>;
        jest.spyOn(ort, 'run').mockImplementation((...args: unknown[]) => {
          runs.push([...(args[0] as InferenceSession.FeedsType).input_ids.dims]);
          return run(...args);
        });
        return ort;
      });
      expect(int4.graph.loneRowDiffers).toBe(true);
    });
    afterAll(() => int4.release());
    beforeEach(() => (runs = []));

    const int4Scheduler = (limits: Partial<SchedulerLimits> = {}) =>
      scheduler(limits, undefined, int4);

    it('decodes a lone request exactly as a row of a batch (bit for bit)', async () => {
      const choices = async (n: number, batchInvariant = true) => {
        const run = start(int4Scheduler({ batchInvariant }), job(PROMPTS[1], { n, maxTokens: 8 }));
        await run.done;
        return run.events.flatMap((e) =>
          e.type === 'delta' && e.choice === 0 ? (e.logprobs ?? []).map((l) => l.logprob) : [],
        );
      };
      const batched = await choices(2);
      expect(batched).toHaveLength(8);
      expect(await choices(1)).toEqual(batched);
      // Without the mode a lone row takes MatMulNBits' M = 1 kernel, which differs from the
      // batched one by ~1e-6 on AVX2 machines; on AVX-512 ones the two can agree, so that
      // difference is not asserted here: the equality above is what the mode guarantees.
    });

    it('runs no step on a single position of a single row', async () => {
      const request = (promptIds: number[]) => job('', { promptIds, maxTokens: 3 });
      const ids = job(PROMPTS[2]).promptIds;
      // A two-token prompt (one position to prefill); chunks of 4 that would leave one
      // position; chunks of one.
      for (const [limits, prompt] of [
        [{}, ids.slice(0, 2)],
        [{ prefillChunkTokens: 4 }, ids.slice(0, 10)],
        [{ prefillChunkTokens: 1 }, ids.slice(0, 6)],
      ] as const) {
        const run = start(int4Scheduler(limits), request([...prompt]));
        await expect(run.done).resolves.toMatchObject({ completionTokens: 3 });
      }
      expect(runs.length).toBeGreaterThan(10);
      for (const dims of runs) expect(dims[0] * dims[1]).toBeGreaterThanOrEqual(2);
    });
  });
});
