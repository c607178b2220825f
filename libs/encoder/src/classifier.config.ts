// What a sequence-classification export says about its head (config.json): the labels by
// output index (`id2label`) and how its logits become scores (`problem_type`).
import { join } from 'node:path';
import { readJson } from '@tessera/runtime';
import { z } from 'zod';
import type { Activation } from './classifier.scores';

export interface ClassifierHead {
  /** Label of each logit, by output index. */
  readonly labels: readonly string[];
  readonly activation: Activation;
}

const ClassifierConfigSchema = z.object({
  id2label: z.record(z.string().regex(/^\d+$/), z.string().min(1)),
  problem_type: z
    .enum(['multi_label_classification', 'single_label_classification', 'regression'])
    .nullable()
    .optional(),
});

/**
 * The activation as transformers' `text-classification` pipeline picks it: sigmoid for a
 * multi-label model or a single logit, softmax for a single-label model or several logits.
 * Regression heads give no probabilities and are refused.
 */
export function activationOf(problemType: string | null | undefined, labels: number): Activation {
  if (problemType === 'regression') {
    throw new Error('problem_type regression gives no class scores; not a classifier');
  }
  if (problemType === 'multi_label_classification' || labels === 1) return 'sigmoid';
  return 'softmax';
}

export async function readClassifierHead(modelDir: string): Promise<ClassifierHead> {
  const file = join(modelDir, 'config.json');
  const config = await readJson(file, ClassifierConfigSchema);
  const count = Object.keys(config.id2label).length;
  const labels = Array.from({ length: count }, (_, i) => config.id2label[String(i)]);
  if (count === 0 || labels.some((label) => label === undefined)) {
    throw new Error(`${file}: id2label must map 0 to ${count - 1} without gaps`);
  }
  return { labels, activation: activationOf(config.problem_type, count) };
}
