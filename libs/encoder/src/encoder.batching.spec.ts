// Batching must be invisible in the numbers: an embedding computed inside a padded batch of
// strangers equals the one computed alone.
import { join } from 'node:path';
import { MicroBatcher } from '@tessera/runtime';
import { EncoderModel, type EncoderOutcome } from './encoder.model';

const MODEL_DIR = join(__dirname, '../../../test/fixtures/models/tiny-bert');

const WORDS = 'the quick brown fox jumps over a lazy dog while it is raining in the city'.split(
  ' ',
);
/** Words per sentence: 20 sentences from 1 word to about 110 tokens, lengths shuffled. */
const WORD_COUNTS = [1, 64, 3, 80, 6, 23, 2, 56, 11, 38, 4, 74, 7, 49, 3, 30, 14, 68, 8, 45];
const SENTENCES = WORD_COUNTS.map((count, i) =>
  Array.from({ length: count }, (_, w) => WORDS[(w + i) % WORDS.length]).join(' '),
);

describe('EncoderModel behind a MicroBatcher', () => {
  let encoder: EncoderModel;

  beforeAll(async () => {
    encoder = await EncoderModel.load({
      modelDir: MODEL_DIR,
      runtime: { workers: 2, intra_op_threads: 1 },
    });
  });
  afterAll(() => encoder.close());

  it('gives each sentence the same embedding batched as alone (within 1e-5)', async () => {
    const vector = (outcome: EncoderOutcome) => {
      if (!('vector' in outcome)) throw new Error('rejected');
      return outcome.vector;
    };
    const alone: Float32Array[] = [];
    const lengths: number[] = [];
    for (const text of SENTENCES) {
      const [outcome] = await encoder.embed([text]);
      alone.push(vector(outcome));
      lengths.push(outcome.tokens);
    }
    expect(Math.min(...lengths)).toBeLessThan(5);
    expect(Math.max(...lengths)).toBeGreaterThan(90);

    const batchSizes: number[] = [];
    const batcher = new MicroBatcher<string, EncoderOutcome>({
      maxWaitMs: 2,
      maxBatchCost: 1024,
      maxBatchItems: 8,
      maxInFlight: encoder.workers,
      cost: (text) => text.length,
      run: (batch) => {
        batchSizes.push(batch.length);
        return encoder.embed(batch);
      },
    });
    // Mostly one sentence per request, plus one request of three, all at once.
    const requests = [...SENTENCES.slice(0, 17).map((text) => [text]), SENTENCES.slice(17)];
    const batched = (await Promise.all(requests.map((r) => batcher.submit(r)))).flat().map(vector);
    await batcher.close();

    expect(Math.max(...batchSizes)).toBeGreaterThan(1); // it really batched
    batched.forEach((embedding, i) => {
      const worst = Math.max(...embedding.map((v, d) => Math.abs(v - alone[i][d])));
      expect(worst).toBeLessThan(1e-5);
    });
  });
});
