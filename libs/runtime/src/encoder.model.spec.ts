import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncoderModel } from './encoder.model';
import { OrtWorkerPool } from './ort-worker.pool';
import { l2Normalize, type Pooling } from './pooling';

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

/** The plain reference: run one unpadded sequence, pool its raw last_hidden_state, normalise. */
async function referenceEmbedding(
  raw: OrtWorkerPool,
  ids: number[],
  pooling: Pooling,
): Promise<Float32Array> {
  const dims = [1, ids.length];
  const feeds = {
    input_ids: { type: 'int64' as const, dims, data: BigInt64Array.from(ids, BigInt) },
    attention_mask: { type: 'int64' as const, dims, data: new BigInt64Array(ids.length).fill(1n) },
    ...(raw.inputNames.includes('token_type_ids') && {
      token_type_ids: { type: 'int64' as const, dims, data: new BigInt64Array(ids.length) },
    }),
  };
  const { last_hidden_state: states } = await raw.run(feeds);
  const [, tokens, hidden] = states.dims;
  const data = states.data as Float32Array;
  const pooled = new Float32Array(hidden);
  const counted = pooling === 'cls' ? 1 : tokens;
  for (let t = 0; t < counted; t++) {
    for (let h = 0; h < hidden; h++) pooled[h] += data[t * hidden + h] / counted;
  }
  return l2Normalize(pooled);
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
    /** The encoder's own sessions, run directly for the raw `last_hidden_state`. */
    let raw: OrtWorkerPool;

    beforeAll(async () => {
      encoder = await EncoderModel.load({
        modelDir: join(FIXTURES, model),
        workers: 2,
        intraOpThreads: 1,
      });
      raw = encoder['pool'];
    });
    afterAll(() => encoder.close());

    it('reads its shape, limits and pooling from the model directory', () => {
      expect(encoder).toMatchObject({ dimensions: 32, maxTokens, vocabSize, pooling, padTokenId });
      expect(encoder.workers).toBe(2);
    });

    it('tokenizes with special tokens, like the Python tokenizer', async () => {
      const ids = await encoder.tokenize(ref.sentences);
      expect(ids).toEqual(ref.input_ids);
      for (const row of ids) expect([row[0], row[row.length - 1]]).toEqual([cls, sep]);
    });

    it('never truncates', async () => {
      const [ids] = await encoder.tokenize(['hello world '.repeat(200)]);
      expect(ids.length).toBeGreaterThan(maxTokens * 2);
    });

    it('tokenizes big inputs split across the workers in order', async () => {
      const texts = Array.from({ length: 150 }, (_, i) =>
        ref.sentences[i % 10].repeat(1 + (i % 3)),
      );
      const one = await Promise.all(texts.map((text) => encoder.tokenize([text])));
      await expect(encoder.tokenize(texts)).resolves.toEqual(one.flat());
    });

    it('matches sentence-transformers embeddings (normalised)', async () => {
      const embeddings = await encoder.embed(ref.input_ids);
      embeddings.forEach((vector, i) => {
        expectClose(vector, l2Normalize(Float32Array.from(ref.embeddings[i])));
      });
    });

    it(`pools (${pooling}) over the attention mask: padding does not change a vector`, async () => {
      const batch = [ref.input_ids[0], ref.input_ids[5], [ref.input_ids[0][0]]];
      const embeddings = await encoder.embed(batch);
      for (const [i, ids] of batch.entries()) {
        expectClose(embeddings[i], await referenceEmbedding(raw, ids, pooling));
        expect(Math.hypot(...embeddings[i])).toBeCloseTo(1, 5);
        // Standalone: a result must not be a view that keeps the whole batch alive.
        expect(embeddings[i].buffer.byteLength).toBe(32 * 4);
      }
    });

    it('rejects sequences longer than the model takes, and ids outside the vocabulary', async () => {
      await expect(encoder.embed([new Array<number>(maxTokens + 1).fill(5)])).rejects.toThrow(
        RangeError,
      );
      await expect(encoder.embed([[0, vocabSize]])).rejects.toThrow(/outside the vocabulary/);
      await expect(encoder.embed([ref.input_ids[0]])).resolves.toHaveLength(1);
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
