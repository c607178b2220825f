// The bench model's category map and activation: those of the default moderation model in
// config/models.yaml (toxic-bert, whose labels and shapes the generated bench model has), so the
// service does the mapping work it does in production and the correctness gate checks it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { resolveCategoryMap, CategoryMapSchema, type CategoryRule } from '@tessera/encoder';

const DEFAULT_MODEL_ID = 'toxic-bert';

export interface BenchModelMap {
  /** The entry's `categories` and `activation`, as the models file takes them. */
  readonly options: { categories: unknown; activation?: string };
  /** The classifier's labels (config.json id2label, by index). */
  readonly labels: string[];
  /** The map resolved against the labels, for applyCategoryMap. */
  readonly rules: CategoryRule[];
}

export function benchModelMap(repo: string, modelDir: string): BenchModelMap {
  const file = join(repo, 'config', 'models.yaml');
  const models = (
    parse(readFileSync(file, 'utf8')) as {
      models: Array<{ id: string; options?: { categories?: unknown; activation?: string } }>;
    }
  ).models;
  const entry = models.find((model) => model.id === DEFAULT_MODEL_ID);
  if (!entry?.options?.categories) throw new Error(`${file}: no ${DEFAULT_MODEL_ID} category map`);
  const config = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as {
    id2label: Record<string, string>;
  };
  const labels = Object.keys(config.id2label)
    .sort((a, b) => Number(a) - Number(b))
    .map((id) => config.id2label[id]);
  const map = CategoryMapSchema.parse(entry.options.categories);
  return {
    options: { categories: entry.options.categories, activation: entry.options.activation },
    labels,
    rules: resolveCategoryMap(map, labels, `${file} ${DEFAULT_MODEL_ID}`),
  };
}
