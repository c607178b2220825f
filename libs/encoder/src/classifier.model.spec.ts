// The classifier head on the fixtures: what it reads from the model directory and what it
// refuses. Its scores against transformers' pipeline: classifier.fidelity.spec.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClassifierModel } from './classifier.model';

const FIXTURES = join(__dirname, '../../../test/fixtures/models');

interface Reference {
  window: { max_length: number; overlap: number };
}
const reference = (model: string): Reference =>
  JSON.parse(readFileSync(join(FIXTURES, model, 'reference.json'), 'utf8')) as Reference;

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
