// Fidelity of the classifier engine to Python transformers: the raw label scores (before any
// category map) of the 50 texts of test/fixtures/moderation-corpus.json equal the
// `pipeline("text-classification", top_k=None)` scores in each fixture's reference.json within
// 1e-4 (tools/fixtures classifiers.py writes them). Texts longer than the model's 64 tokens are
// scored as the max over the same overlapping windows the reference records, so windowing,
// padding in a batch, sigmoid (multi-label) and softmax (single-label) are all covered.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClassifierModel, type ClassifierOutcome } from './classifier.model';

const FIXTURES = join(__dirname, '../../../test/fixtures');
const TOLERANCE = 1e-4;

interface ReferenceCase {
  readonly text: string;
  readonly tokens: number;
  readonly scores: Record<string, number>;
  readonly windows?: ReadonlyArray<{ input_ids: number[] }>;
}

interface Reference {
  readonly labels: string[];
  readonly function_to_apply: 'sigmoid' | 'softmax';
  readonly window: { max_length: number; overlap: number };
  readonly cases: ReferenceCase[];
}

const corpus = (
  JSON.parse(readFileSync(join(FIXTURES, 'moderation-corpus.json'), 'utf8')) as { texts: string[] }
).texts;

const readReference = (model: string): Reference =>
  JSON.parse(readFileSync(join(FIXTURES, 'models', model, 'reference.json'), 'utf8')) as Reference;

/** Largest |engine − reference| over every label of every text. */
function worstDifference(
  outcomes: readonly ClassifierOutcome[],
  reference: Reference,
): { worst: number; at: string } {
  let worst = 0;
  let at = '';
  outcomes.forEach((outcome, i) => {
    if (!('scores' in outcome)) throw new Error(`text ${i} refused: ${JSON.stringify(outcome)}`);
    reference.labels.forEach((label, j) => {
      const difference = Math.abs(outcome.scores[j] - reference.cases[i].scores[label]);
      if (difference > worst) [worst, at] = [difference, `text ${i} label ${label}`];
    });
  });
  return { worst, at };
}

describe.each([
  { model: 'tiny-toxic-bert', activation: 'sigmoid' },
  { model: 'tiny-safety-cls', activation: 'softmax' },
] as const)('classifier fidelity to transformers ($model)', ({ model, activation }) => {
  const reference = readReference(model);
  let classifier: ClassifierModel;
  beforeAll(async () => {
    classifier = await ClassifierModel.load({
      modelDir: join(FIXTURES, 'models', model),
      runtime: { workers: 1, intra_op_threads: 1 },
      windowOverlap: reference.window.overlap,
      maxWindows: 16,
    });
  });
  afterAll(() => classifier.close());

  it('is scored on the whole corpus, short and windowed texts alike', () => {
    expect(corpus).toHaveLength(50);
    expect(reference.cases.map((c) => c.text)).toEqual(corpus);
    expect(reference.cases.filter((c) => c.windows).length).toBeGreaterThanOrEqual(10);
    expect(classifier.labels).toEqual(reference.labels);
    expect(classifier.activation).toBe(activation);
    expect(reference.function_to_apply).toBe(activation);
  });

  it('scores all 50 texts in one padded batch as the Python pipeline does (|Δ| ≤ 1e-4)', async () => {
    const outcomes = await classifier.classify(corpus);
    expect(outcomes.map((o) => o.tokens)).toEqual(reference.cases.map((c) => c.tokens));
    expect(outcomes.map((o) => ('windows' in o ? o.windows : 0))).toEqual(
      reference.cases.map((c) => c.windows?.length ?? 1),
    );
    const { worst, at } = worstDifference(outcomes, reference);
    expect({ worst: worst <= TOLERANCE ? 'within 1e-4' : worst, at }).toMatchObject({
      worst: 'within 1e-4',
    });
  });

  it('scores each text alone the same (batching does not change a score)', async () => {
    const alone = await Promise.all(corpus.map((text) => classifier.classify([text])));
    const { worst, at } = worstDifference(
      alone.map(([outcome]) => outcome),
      reference,
    );
    expect({ worst: worst <= TOLERANCE ? 'within 1e-4' : worst, at }).toMatchObject({
      worst: 'within 1e-4',
    });
  });
});
