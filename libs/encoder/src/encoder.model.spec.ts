import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncoderModel, type EncoderOutcome } from './encoder.model';
import { l2Normalize } from './pooling';
import { loadLocalTokenizer } from '@tessera/text';
import { encodeBounded } from './tokenizer.bounds';

const FIXTURES = join(__dirname, '../../../test/fixtures/models');

interface Reference {
  sentences: string[];
  input_ids: number[][];
  embeddings: number[][];
}
const reference = (model: string): Reference =>
  JSON.parse(readFileSync(join(FIXTURES, model, 'reference.json'), 'utf8')) as Reference;

function expectClose(actual: Float32Array, expected: ArrayLike<number>, tolerance = 1e-5): void {
  expect(actual).toHaveLength(expected.length);
  const worst = Math.max(...Array.from(actual, (v, i) => Math.abs(v - expected[i])));
  expect(worst).toBeLessThan(tolerance);
}

/** The vectors of outcomes that must all have been embedded. */
function vectorsOf(outcomes: EncoderOutcome[]): Float32Array[] {
  return outcomes.map((outcome) => {
    if (!('vector' in outcome)) throw new Error(`rejected: ${JSON.stringify(outcome)}`);
    return outcome.vector;
  });
}

describe.each([
  {
    model: 'tiny-bert',
    pooling: 'mean',
    maxTokens: 128,
    vocabSize: 1500,
    padTokenId: 0,
    cls: 2,
    sep: 3,
  },
  {
    model: 'tiny-roberta-cls',
    pooling: 'cls',
    maxTokens: 64,
    vocabSize: 1000,
    padTokenId: 1,
    cls: 0,
    sep: 2,
  },
] as const)(
  'EncoderModel ($model)',
  ({ model, pooling, maxTokens, vocabSize, padTokenId, cls, sep }) => {
    const ref = reference(model);
    let encoder: EncoderModel;
    beforeAll(async () => {
      encoder = await EncoderModel.load({
        modelDir: join(FIXTURES, model),
        runtime: { workers: 2, intra_op_threads: 1 },
      });
    });
    afterAll(() => encoder.close());

    it('reads its shape, limits and pooling from the model directory', () => {
      expect(encoder).toMatchObject({ dimensions: 32, maxTokens, vocabSize, pooling, padTokenId });
      expect(encoder.workers).toBe(2);
    });

    it('tokenizes with special tokens, like the Python tokenizer', async () => {
      const tokenizer = await loadLocalTokenizer(join(FIXTURES, model));
      const ids = ref.sentences.map((text) => encodeBounded(tokenizer, text, maxTokens));
      expect(ids).toEqual(ref.input_ids.map((row) => ({ ids: row, complete: true })));
      for (const row of ref.input_ids) expect([row[0], row[row.length - 1]]).toEqual([cls, sep]);
    });

    it('stops tokenizing a text that is clearly over the limit, never truncating it', async () => {
      const tokenizer = await loadLocalTokenizer(join(FIXTURES, model));
      const long = encodeBounded(tokenizer, 'hello world '.repeat(2000), maxTokens);
      expect(long.complete).toBe(false);
      expect(long.ids.length).toBeGreaterThan(maxTokens);
      expect(long.ids.length).toBeLessThan(maxTokens * 8);
      // Just over the limit: tokenized whole, for an exact count.
      const near = encodeBounded(tokenizer, 'hello world '.repeat(maxTokens / 2), maxTokens);
      expect(near).toEqual({ ids: expect.any(Array), complete: true });
      expect(near.ids.length).toBeGreaterThan(maxTokens);
    });

    it('matches sentence-transformers embeddings (normalised), from ids or texts', async () => {
      const fromIds = await encoder.embed(ref.input_ids);
      const fromTexts = await encoder.embed(ref.sentences);
      for (const outcomes of [fromIds, fromTexts]) {
        vectorsOf(outcomes).forEach((vector, i) => {
          expectClose(vector, l2Normalize(Float32Array.from(ref.embeddings[i])));
        });
        expect(outcomes.map((o) => o.tokens)).toEqual(ref.input_ids.map((ids) => ids.length));
      }
    });

    it(`pools (${pooling}) over the attention mask: padding does not change a vector`, async () => {
      const batch = [ref.input_ids[0], ref.input_ids[5], [ref.input_ids[0][0]]];
      const embeddings = vectorsOf(await encoder.embed(batch));
      for (const [i, ids] of batch.entries()) {
        // Alone, a sequence has no padding to leave out.
        expectClose(embeddings[i], vectorsOf(await encoder.embed([ids]))[0]);
        expect(Math.hypot(...embeddings[i])).toBeCloseTo(1, 5);
        // Standalone: a result must not be a view that keeps the whole batch alive.
        expect(embeddings[i].buffer.byteLength).toBe(32 * 4);
      }
    });

    it('rejects empty, too long and out-of-vocabulary inputs, never truncating', async () => {
      const long = 'hello world '.repeat(maxTokens);
      const outcomes = await encoder.embed([
        new Array<number>(maxTokens + 1).fill(5),
        [0, vocabSize],
        [],
        long,
        ref.input_ids[0],
      ]);
      expect(outcomes.slice(0, 4)).toEqual([
        { tokens: maxTokens + 1, rejection: { reason: 'too_long' } },
        { tokens: 2, rejection: { reason: 'out_of_vocabulary', tokenId: vocabSize } },
        { tokens: 0, rejection: { reason: 'empty' } },
        { tokens: expect.any(Number), rejection: { reason: 'too_long', truncated: true } },
      ]);
      expect(outcomes[3].tokens).toBeGreaterThan(maxTokens);
      expect(vectorsOf(outcomes.slice(4))).toHaveLength(1);
    });

    it('skips every input of a request that has a rejected one', async () => {
      const outcomes = await encoder.embed(
        [ref.sentences[0], [0, vocabSize], ref.sentences[1]],
        [7, 7, 8],
      );
      expect(outcomes.map((o) => ('rejection' in o ? o.rejection.reason : 'ok'))).toEqual([
        'request_rejected',
        'out_of_vocabulary',
        'ok',
      ]);
    });

    it('warms up every worker', async () => {
      await expect(encoder.warmup()).resolves.toBeUndefined();
    });
  },
);

describe('EncoderModel.load', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'encoder-model-'));
    cpSync(join(FIXTURES, 'tiny-bert'), dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects a directory that is not an encoder export', async () => {
    await expect(EncoderModel.load({ modelDir: join(dir, 'nope') })).rejects.toThrow(/missing/);
  });

  it('rejects a graph without input_ids', async () => {
    // onnxruntime's `mul_1.onnx` test graph: Y = X * W, nothing like an encoder.
    const mul =
      'CAMSBmNoZW50YTpwChUKAVgKAVcSAVkaBW11bF8xIgNNdWwSCG11bCB0ZXN0KiMIAwgCEAEiGAAAgD8AAABAAABAQAAAgEAAAKBAAADAQEIBV1oTCgFYEg4KDAgBEggKAggDCgIIAmITCgFZEg4KDAgBEggKAggDCgIIAkIECgAQBw==';
    writeFileSync(join(dir, 'onnx/model.onnx'), Buffer.from(mul, 'base64'));
    await expect(EncoderModel.load({ modelDir: dir })).rejects.toThrow(
      /not an encoder export: inputs \[X\]/,
    );
  });
});

describe('EncoderModel bounds on the work of one request', () => {
  let encoder: EncoderModel;
  beforeAll(async () => {
    encoder = await EncoderModel.load({
      modelDir: join(FIXTURES, 'tiny-bert'),
      runtime: { intra_op_threads: 1 },
      maxRequestTokens: 40,
    });
  });
  afterAll(() => encoder.close());

  it('refuses, before any work, texts longer than any input that fits, and ids over the limits', () => {
    expect(encoder.maxInputChars).toBe(128 * 16);
    expect(encoder.refuseEarly(['fine', 'x'.repeat(128 * 16)])).toBeUndefined();
    expect(encoder.refuseEarly(['fine', 'x'.repeat(128 * 16 + 1)])).toEqual({
      index: 1,
      tokens: 0,
      rejection: { reason: 'too_many_characters', characters: 128 * 16 + 1 },
    });
    expect(encoder.refuseEarly([new Array<number>(129).fill(5)])).toEqual({
      index: 0,
      tokens: 129,
      rejection: { reason: 'too_long' },
    });
    expect(
      encoder.refuseEarly([new Array<number>(30).fill(5), [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]]),
    ).toEqual({
      index: 1,
      tokens: 11,
      rejection: { reason: 'request_too_long', requestTokens: 41 },
    });
  });

  it("caps a request's tokens and stops tokenizing its inputs once one is rejected", async () => {
    const ids = new Array<number>(15).fill(5);
    const text = 'the quick brown fox jumps over the lazy dog';
    // Request 1 goes over the cap (40) at its third input; request 2 is fine.
    const outcomes = await encoder.embed([ids, ids, ids, text, text], [1, 1, 1, 1, 2]);
    expect(outcomes.map((o) => ('rejection' in o ? o.rejection : 'ok'))).toEqual([
      { reason: 'request_rejected' },
      { reason: 'request_rejected' },
      { reason: 'request_too_long', requestTokens: 45 },
      { reason: 'request_rejected' },
      'ok',
    ]);
    expect(outcomes[3].tokens).toBe(0); // never tokenized
    expect(outcomes[4].tokens).toBeGreaterThan(2);
  });
});
