import { MODERATION_CATEGORIES } from '@tessera/contracts';
import { toOpenAIModeration } from './moderation.response';

const category = (name: string, score: number, flagged = false) => ({
  category: name,
  score,
  flagged,
  applied_input_types: ['text'],
});

describe('toOpenAIModeration', () => {
  it('keys every category by name, in three objects, with a modr- id', () => {
    const categories = MODERATION_CATEGORIES.map((name, i) =>
      category(name, i / 100, name === 'harassment/threatening'),
    );
    const response = toOpenAIModeration(
      { model: 'tiny', results: [{ flagged: true, categories: [...categories].reverse() }] },
      'omni-moderation-latest',
      1,
    );
    expect(response.id).toMatch(/^modr-[0-9a-f]{32}$/);
    expect(response.model).toBe('omni-moderation-latest');
    const [result] = response.results;
    expect(result.flagged).toBe(true);
    expect(Object.keys(result.categories)).toEqual([...MODERATION_CATEGORIES]);
    expect(result.categories['harassment/threatening']).toBe(true);
    expect(result.categories.hate).toBe(false);
    expect(result.category_scores['violence/graphic']).toBe(
      MODERATION_CATEGORIES.indexOf('violence/graphic') / 100,
    );
    expect(result.category_applied_input_types.sexual).toEqual(['text']);
  });

  it('refuses a reply that leaves a category out rather than inventing it', () => {
    const categories = MODERATION_CATEGORIES.filter((name) => name !== 'hate').map((name) =>
      category(name, 0),
    );
    expect(() =>
      toOpenAIModeration({ model: 'm', results: [{ flagged: false, categories }] }, 'm', 1),
    ).toThrow(/left out category 'hate'/);
  });

  it('refuses a reply with a result count other than the inputs', () => {
    expect(() => toOpenAIModeration({ model: 'm', results: [] }, 'm', 2)).toThrow(
      /0 results for 2 inputs/,
    );
  });
});
