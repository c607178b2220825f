// The classifier head on the fixtures against transformers' text-classification pipeline
// (reference.json, written by tools/fixtures from the PyTorch weights): the scores before any
// category map, for the 50-text corpus, long texts windowed as the reference windows them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClassifierModel, type ClassifierOutcome } from './classifier.model';

const FIXTURES = join(__dirname, '../../../test/fixtures/models');

interface Reference {
  labels: string;
  window: { max_length: number; overlap: number };
  cases: { text: string; tokens: number; scores: Record<string, number> }[];
}
const reference = (model: string): Reference =>
  JSON.parse(readFileSync(join(FIXTURES, model, 'reference.json'), 'utf8')) as Reference;

function scoresOf(outcome: ClassifierOutcome): Float64Array {
  if (!('scores' in outcome)) throw new Error(`rejected: ${JSON.stringify(outcome)}`);
  return outcome.scores;
}

describe.each([
  { model: 'tiny-toxic-bert', activation: 'sigmoid', labels: 6 },
  { model: 'tiny-safety-cls', activation: 'softmax', labels: 4 },
])('ClassifierModel on $model', ({ model: name, activation, labels }) => {
  const ref = reference(name);
  let model: ClassifierModel;

  beforeAll(async () => {
    model = await ClassifierModel.load({
      modelDir: join(FIXTURES, name),
      windowOverlap: ref.window.overlap,
      maxWindows: 16,
      runtime: { intra_op_threads: 1 },
    });
  });
  afterAll(() => model?.close());

  it('reads its labels and activation from config.json', () => {
    expect(model.labels).toHaveLength(labels);
    expect(model.activation).toBe(activation);
    expect(model.windowing.maxTokens).toBe(ref.window.max_length);
  });

  it('scores the corpus as the transformers pipeline does (|Δ| ≤ 1e-4), long texts windowed', async () => {
    const texts = ref.cases.map((c) => c.text);
    expect(texts).toHaveLength(50);
    expect(ref.cases.some((c) => c.tokens > ref.window.max_length)).toBe(true);
    const outcomes = await model.classify(texts);
    let worst = 0;
    outcomes.forEach((outcome, i) => {
      const scores = scoresOf(outcome);
      expect(outcome.tokens).toBe(ref.cases[i].tokens);
      model.labels.forEach((label, l) => {
        worst = Math.max(worst, Math.abs(scores[l] - ref.cases[i].scores[label]));
      });
    });
    expect(worst).toBeLessThanOrEqual(1e-4);
  });

  it('gives each text the same scores alone as in a batch', async () => {
    const texts = ref.cases.slice(0, 6).map((c) => c.text);
    const batched = (await model.classify(texts)).map(scoresOf);
    for (const [i, text] of texts.entries()) {
      const [alone] = (await model.classify([text])).map(scoresOf);
      alone.forEach((score, l) => expect(Math.abs(score - batched[i][l])).toBeLessThan(1e-5));
    }
  });

  it('refuses a text that needs more windows than allowed, and an empty one', async () => {
    const long = 'word '.repeat(model.maxTextTokens + 10);
    const [tooLong, empty, fine] = await model.classify([long, '', 'fine']);
    expect(tooLong).toMatchObject({ rejection: { reason: 'too_long' } });
    expect(empty).toMatchObject({ rejection: { reason: 'empty' } });
    expect(fine).toHaveProperty('scores');
    expect(model.refuseEarly(['ok', 'x'.repeat(model.maxInputChars + 1)])).toEqual({
      index: 1,
      characters: model.maxInputChars + 1,
    });
  });
});
