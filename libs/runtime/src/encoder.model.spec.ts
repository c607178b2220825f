import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncoderModel, type EncoderOutcome } from './encoder.model';
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

/** The vectors of outcomes that must all have been embedded. */
function vectorsOf(outcomes: EncoderOutcome[]): Float32Array[] {
  return outcomes.map((outcome) => {
    if (!('vector' in outcome)) throw new Error(`rejected: ${JSON.stringify(outcome)}`);
    return outcome.vector;
  });
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
        expectClose(embeddings[i], await referenceEmbedding(raw, ids, pooling));
        expect(Math.hypot(...embeddings[i])).toBeCloseTo(1, 5);
        // Standalone: a result must not be a view that keeps the whole batch alive.
        expect(embeddings[i].buffer.byteLength).toBe(32 * 4);
      }
    });

    it('rejects empty, too long and out-of-vocabulary inputs, never truncating', async () => {
      const long = 'hello world '.repeat(200);
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
        { tokens: expect.any(Number), rejection: { reason: 'too_long' } },
      ]);
      expect(outcomes[3].tokens).toBeGreaterThan(maxTokens * 2);
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
