// The grammar workers on SmolLM2's real vocabulary (the tiny-llama fixture): the masks match the
// in-process engine's, a compile never holds up the masks of running sequences nor a schema
// compiled before, busy steady workers get an extra one within the maximum, and workers are
// recycled past their memory bound.
import {
  allowedIds,
  loadSmolLM2Grammar,
  SMOLLM2_EOS,
  SMOLLM2_VOCAB,
} from '../../test/smollm2-grammar';
import { TINY_LLAMA } from '../../test/tiny-models';
import type { OutputConstraint } from '../decoder.protocol';
import type { SequenceConstraint } from './constraint.contract';
import { GrammarWorkerPool, type GrammarWorkerPoolOptions } from './grammar-worker.pool';

const DATA = { modelDir: TINY_LLAMA, vocabSize: SMOLLM2_VOCAB, eosTokenIds: [SMOLLM2_EOS] };
const schema = (value: unknown): OutputConstraint => ({
  type: 'json_schema',
  schema: JSON.stringify(value),
});
const PET = schema({
  type: 'object',
  properties: { kind: { enum: ['cat', 'dog'] }, legs: { type: 'integer', maximum: 8 } },
  required: ['kind', 'legs'],
});
/** Compiles for seconds (the edge refuses it; the engine alone does not). */
const SLOW = schema({ type: 'string', minLength: 100_000 });

describe('GrammarWorkerPool', () => {
  const pools: GrammarWorkerPool[] = [];
  const pool = (options?: GrammarWorkerPoolOptions) => {
    const made = new GrammarWorkerPool(DATA, options);
    pools.push(made);
    return made;
  };
  afterEach(() => pools.splice(0).forEach((p) => p.close()));

  const one = async (target: GrammarWorkerPool, constraint: OutputConstraint) =>
    (await target.constraints(constraint, 1)).sequences[0];

  it('gives the masks the in-process engine gives, step after step', async () => {
    const { compiler } = await loadSmolLM2Grammar();
    try {
      const local = (await compiler.constraints(PET, 1)).sequences[0];
      const remote = await one(pool(), PET);
      for (let step = 0; step < 6; step++) {
        const expected = await allowedIds(local);
        expect(await allowedIds(remote)).toEqual(expected);
        const id = expected[Math.floor(expected.length / 2)];
        local.accept!(id);
        remote.accept!(id);
      }
      remote.dispose();
      local.dispose();
    } finally {
      compiler.dispose();
    }
  });

  it('keeps serving the masks of running sequences while another schema compiles', async () => {
    const target = pool();
    const running = await one(target, PET);
    let compiled = false;
    const slow = target.constraints(SLOW, 1).then(() => (compiled = true));
    slow.catch(() => undefined);
    // Each mask is a round trip to the worker that holds the running sequence's matcher.
    let masks = 0;
    while (!compiled && masks < 50) {
      await running.prepare();
      running.process(new Float32Array(SMOLLM2_VOCAB));
      masks++;
    }
    expect(compiled).toBe(false);
    expect(masks).toBe(50);
    expect(target.stats).toEqual({ started: 2, alive: 2 });
    running.dispose();
  });

  it('serves a schema compiled before at once while both steady workers are busy and another compiles', async () => {
    const target = pool();
    // Both steady workers have matchers in use: the new schema needs a third.
    const running = await one(target, PET);
    const other = await target.constraints(schema({ type: 'string', maxLength: 5 }), 2);
    const slow = target.constraints(SLOW, 1).then(({ sequences }) => {
      sequences.forEach((s) => s.dispose());
      return 'slow';
    });
    const again = target.constraints(PET, 1).then(({ sequences, info }) => {
      sequences.forEach((s) => s.dispose());
      return info.cacheHit ? 'again from the cache' : 'again compiled';
    });
    expect(await Promise.race([slow, again])).toBe('again from the cache');
    expect(target.stats).toEqual({ started: 3, alive: 3 });
    await slow;
    running.dispose();
    other.sequences.forEach((s) => s.dispose());
  });

  it('compiles a schema held by a worker busy with another compile anew, without waiting for it', async () => {
    const target = pool();
    (await one(target, PET)).dispose();
    // The only worker is idle, so the slow schema compiles there, where PET is held.
    const slow = target.constraints(SLOW, 1).then(({ sequences }) => {
      sequences.forEach((s) => s.dispose());
      return 'slow';
    });
    const again = target.constraints(PET, 1).then(({ sequences }) => {
      sequences.forEach((s) => s.dispose());
      return 'again';
    });
    expect(await Promise.race([slow, again])).toBe('again');
    expect(target.stats.started).toBe(2);
    await slow;
  });

  it('starts an extra worker for a new schema while the steady ones are busy, and ends it once its matchers are done', async () => {
    const target = pool({ workers: 1 });
    const running = await one(target, PET);
    const extra = await target.constraints(schema({ type: 'string', maxLength: 5 }), 2);
    expect(extra.info.cacheHit).toBe(false);
    expect(target.stats).toEqual({ started: 2, alive: 2 });
    // Retired once its compile is done: its first sequence keeps it, the last one ends it.
    extra.sequences[0].dispose();
    expect(target.stats.alive).toBe(2);
    extra.sequences[1].dispose();
    await until(() => target.stats.alive === 1);
    // The steady worker stays, and its grammar with it.
    const again = await target.constraints(PET, 1);
    expect(again.info.cacheHit).toBe(true);
    again.sequences[0].dispose();
    running.dispose();
  });

  it('never has more live workers than its maximum: past it, a new schema waits for one to end', async () => {
    const target = pool({ workers: 1, maxWorkers: 3 });
    const held = [await one(target, PET)];
    for (let i = 0; i < 2; i++)
      held.push(await one(target, schema({ type: 'integer', maximum: i })));
    expect(target.stats).toEqual({ started: 3, alive: 3 });
    const order: string[] = [];
    const waiting = target.constraints(schema({ type: 'boolean' }), 1).then((made) => {
      order.push('compiled');
      return made;
    });
    // A schema compiled before still goes straight to its worker.
    const cached = await target.constraints(PET, 1);
    expect(cached.info.cacheHit).toBe(true);
    cached.sequences[0].dispose();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual([]);
    expect(target.stats.alive).toBe(3);
    order.push('disposed');
    held.pop()!.dispose();
    const made = await waiting;
    expect(order).toEqual(['disposed', 'compiled']);
    expect(target.stats).toEqual({ started: 4, alive: 3 });
    made.sequences[0].dispose();
    held.forEach((s) => s.dispose());
    await until(() => target.stats.alive === 1);
  });

  it('sends a grammar compiled before, or being compiled, to the worker that holds it', async () => {
    const target = pool();
    const [first, meanwhile] = await Promise.all([
      target.constraints(PET, 2),
      target.constraints(PET, 1),
    ]);
    const again = await target.constraints(PET, 1);
    expect(first.info.cacheHit).toBe(false);
    expect(meanwhile.info).toEqual({ cacheHit: true, compileMs: 0 });
    expect(again.info).toEqual({ cacheHit: true, compileMs: 0 });
    expect(target.stats.started).toBe(1);
    [first, meanwhile, again].forEach(({ sequences }) => sequences.forEach((s) => s.dispose()));
  });

  it('recycles a worker past its memory bound once its matchers are done, within the worker count', async () => {
    // Any growth retires a worker: each one compiles one schema and is ended when it is free.
    const target = pool({ workers: 2, heapGrowth: 0 });
    const held: SequenceConstraint[] = [];
    for (let i = 0; i < 6; i++) {
      held.push(await one(target, schema({ type: 'string', maxLength: 10 + i })));
      expect(target.stats.alive).toBeLessThanOrEqual(2);
      // The oldest still in use keeps its worker until it is disposed.
      if (held.length === 2) held.shift()!.dispose();
    }
    held.forEach((s) => s.dispose());
    expect(target.stats.started).toBe(6);
    await until(() => target.stats.alive === 0);
  });

  it('fails a schema XGrammar refuses, and keeps working', async () => {
    const target = pool();
    await expect(target.constraints(schema({ type: 'strin' }), 1)).rejects.toMatchObject({
      name: 'GrammarCompileError',
    });
    const ok = await one(target, PET);
    expect((await allowedIds(ok)).length).toBeGreaterThan(0);
    ok.dispose();
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
