import { ModerationModelOptionsSchema } from './moderation-model.options';

const categories = { harassment: { labels: ['insult'] } };

describe('moderation model options', () => {
  it('fills the defaults', () => {
    const options = ModerationModelOptionsSchema.parse({ categories });
    expect(options).toMatchObject({
      max_inputs: 32,
      window_overlap_tokens: 64,
      max_windows_per_input: 16,
      max_batch_tokens: 8192,
      classifiers: [],
      categories: { harassment: { labels: ['insult'], combine: 'max', threshold: 0.5 } },
    });
  });

  it.each([
    [{}, 'categories'],
    [{ categories: { harrasment: { labels: ['insult'] } } }, 'categories'],
    [{ categories: { hate: { labels: [] } } }, 'categories.hate.labels'],
    [{ categories: { hate: { labels: ['x'], threshold: 1.5 } } }, 'categories.hate.threshold'],
    [{ categories, max_inputs: 0 }, 'max_inputs'],
    [{ categories, classifiers: [{ categories }] }, 'classifiers.0.source'],
    [
      { categories, classifiers: [{ source: 'x', file: 'a.bin', categories }] },
      'classifiers.0.file',
    ],
    [{ categories, max_request_tokens: 10 }, ''],
  ])('refuses %j, naming %s', (options, path) => {
    const parsed = ModerationModelOptionsSchema.safeParse(options);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });
});
