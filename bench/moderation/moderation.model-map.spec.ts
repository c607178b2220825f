// The moderation benchmark serves its model with the default model's map from
// config/models.yaml; it must resolve against toxic-bert's labels, which the committed fixture
// tiny-toxic-bert has like the generated bench model (both from tools/fixtures classifiers.py).
import { join } from 'node:path';
import { applyCategoryMap } from '@tessera/encoder';
import { benchModelMap } from './moderation.model-map';

const REPO = join(__dirname, '..', '..');
const TOXIC_BERT_LABELS = ['toxic', 'severe_toxic', 'obscene', 'threat', 'insult', 'identity_hate'];

describe('benchModelMap', () => {
  const map = benchModelMap(REPO, join(REPO, 'test', 'fixtures', 'models', 'tiny-toxic-bert'));

  it("reads toxic-bert's labels and the default model's category map", () => {
    expect(map.labels).toEqual(TOXIC_BERT_LABELS);
    expect(map.options.categories).toHaveProperty('harassment');
    expect(map.rules.length).toBeGreaterThan(0);
  });

  it('maps label scores onto categories as the service does', () => {
    const scores = TOXIC_BERT_LABELS.map((_, i) => (i + 1) / 10);
    const { categories } = applyCategoryMap([scores], [map.rules]);
    const harassment = categories.find((c) => c.category === 'harassment');
    const rule = map.rules.find((r) => r.category === 'harassment');
    expect(harassment?.score).toBe(Math.max(...(rule?.labels ?? []).map((l) => scores[l])));
    expect(categories).toHaveLength(13);
  });
});
