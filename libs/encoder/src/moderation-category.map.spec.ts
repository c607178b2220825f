import { MODERATION_CATEGORIES } from '@tessera/contracts';
import {
  applyCategoryMap,
  resolveCategoryMap,
  uncoveredCategories,
} from './moderation-category.map';
import { CategoryMapSchema } from './moderation-model.options';

const TOXIC_LABELS = ['toxic', 'severe_toxic', 'obscene', 'threat', 'insult', 'identity_hate'];
const SAFETY_LABELS = ['self_harm', 'self_harm_intent', 'sexual', 'sexual_minors'];

/** The default models file's map for toxic-bert (config/models.yaml). */
const toxicRules = resolveCategoryMap(
  CategoryMapSchema.parse({
    harassment: { labels: ['insult', 'severe_toxic'] },
    'harassment/threatening': { labels: ['threat'] },
    hate: { labels: ['identity_hate'] },
    'hate/threatening': { labels: ['identity_hate', 'threat'], combine: 'min' },
    violence: { labels: ['threat'], threshold: 0.7 },
  }),
  TOXIC_LABELS,
  'toxic',
);
const safetyRules = resolveCategoryMap(
  CategoryMapSchema.parse({
    'self-harm': { labels: ['self_harm', 'self_harm_intent'], threshold: 0.4 },
    'self-harm/intent': { labels: ['self_harm_intent'] },
    // Also mapped by no other classifier here; see the merge test for a shared one.
    sexual: { labels: ['sexual'] },
  }),
  SAFETY_LABELS,
  'safety',
);

const byCategory = (result: ReturnType<typeof applyCategoryMap>) =>
  Object.fromEntries(result.categories.map((c) => [c.category, c]));

describe('the category map', () => {
  //                     toxic severe obscene threat insult identity_hate
  const toxicScores = [0.99, 0.1, 0.95, 0.6, 0.3, 0.8];

  it('lists all 13 categories in OpenAI’s order, scoring each as the max of its labels', () => {
    const result = applyCategoryMap([toxicScores], [toxicRules]);
    expect(result.categories.map((c) => c.category)).toEqual([...MODERATION_CATEGORIES]);
    const c = byCategory(result);
    expect(c.harassment).toEqual({
      category: 'harassment',
      score: 0.3,
      flagged: false,
      applied_input_types: ['text'],
    });
    expect(c['harassment/threatening']).toMatchObject({ score: 0.6, flagged: true });
    expect(c.hate).toMatchObject({ score: 0.8, flagged: true });
    // min(identity_hate 0.8, threat 0.6): both fire.
    expect(c['hate/threatening']).toMatchObject({ score: 0.6, flagged: true });
    // Its own threshold: 0.6 < 0.7.
    expect(c.violence).toMatchObject({ score: 0.6, flagged: false });
    expect(result.flagged).toBe(true);
  });

  it('scores uncovered categories 0, never flags them, and applies them to no input type', () => {
    // obscene and toxic fire but are mapped to nothing: nothing is invented from them.
    const c = byCategory(applyCategoryMap([[0.99, 0, 0.99, 0, 0, 0]], [toxicRules]));
    for (const category of ['sexual', 'illicit', 'self-harm', 'violence/graphic']) {
      expect(c[category]).toEqual({ category, score: 0, flagged: false, applied_input_types: [] });
    }
    expect(applyCategoryMap([[0.99, 0, 0.99, 0, 0, 0]], [toxicRules]).flagged).toBe(false);
    expect(uncoveredCategories([toxicRules])).toEqual([
      'illicit',
      'illicit/violent',
      'self-harm',
      'self-harm/intent',
      'self-harm/instructions',
      'sexual',
      'sexual/minors',
      'violence/graphic',
    ]);
  });

  it('flags at the threshold itself', () => {
    const c = byCategory(applyCategoryMap([[0, 0, 0, 0, 0.5, 0]], [toxicRules]));
    expect(c.harassment).toMatchObject({ score: 0.5, flagged: true });
  });

  it('merges the categories of several classifiers behind one model', () => {
    const safetyScores = [0.45, 0.05, 0.3, 0.2];
    const result = applyCategoryMap([toxicScores, safetyScores], [toxicRules, safetyRules]);
    const c = byCategory(result);
    expect(c.hate).toMatchObject({ score: 0.8, flagged: true });
    expect(c['self-harm']).toMatchObject({ score: 0.45, flagged: true });
    expect(c['self-harm/intent']).toMatchObject({ score: 0.05, flagged: false });
    expect(c.sexual).toMatchObject({ score: 0.3, flagged: false, applied_input_types: ['text'] });
    expect(uncoveredCategories([toxicRules, safetyRules])).toEqual([
      'illicit',
      'illicit/violent',
      'self-harm/instructions',
      'sexual/minors',
      'violence/graphic',
    ]);
  });

  it('takes the max of two classifiers mapping one category, flagged when either rule flags', () => {
    const other = resolveCategoryMap(
      CategoryMapSchema.parse({ hate: { labels: ['sexual'], threshold: 0.2 } }),
      SAFETY_LABELS,
      'other',
    );
    const quiet = [0, 0, 0, 0, 0, 0.1];
    const c = byCategory(applyCategoryMap([quiet, [0, 0, 0.25, 0]], [toxicRules, other]));
    expect(c.hate).toMatchObject({ score: 0.25, flagged: true });
    const none = byCategory(applyCategoryMap([quiet, [0, 0, 0.15, 0]], [toxicRules, other]));
    expect(none.hate).toMatchObject({ score: 0.15, flagged: false });
  });

  it('refuses a label the classifier does not have, naming it and the known labels', () => {
    const map = CategoryMapSchema.parse({ sexual: { labels: ['obscenity'] } });
    expect(() => resolveCategoryMap(map, TOXIC_LABELS, "model 'm'")).toThrow(
      "model 'm': category 'sexual' maps label 'obscenity', which the classifier does not have " +
        '(its labels: toxic, severe_toxic, obscene, threat, insult, identity_hate)',
    );
  });
});
