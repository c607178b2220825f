// The one-off correctness gate: the service's category scores (through the OpenAI SDK, one
// request with several inputs) against the reference pipeline's label scores put through the
// same category map (apps/moderation's applyCategoryMap), and every result listing all 13
// OpenAI categories.
import { MODERATION_CATEGORIES } from '@tessera/contracts';
import { applyCategoryMap, type CategoryRule } from '@tessera/encoder';
import OpenAI from 'openai';
import { spreadByLength, type BenchSentence } from '../lib/sentence.corpus';
import type { DirectClassifier } from './direct-classifier.reference';

/** Sentences compared: spread from the shortest to the longest of the corpus. */
const SENTENCES = 8;
/** The gate: every mapped score within this of the reference's (as the fidelity spec asks). */
export const MAX_SCORE_DIFFERENCE = 1e-4;

export interface ModerationCorrectness {
  readonly sentences: number;
  readonly maxScoreDifference: number;
  readonly allCategories: boolean;
  readonly pass: boolean;
  readonly summary: string;
}

export async function compareWithReference(
  service: { baseURL: string; apiKey: string; model: string },
  direct: DirectClassifier,
  corpus: readonly BenchSentence[],
  labels: readonly string[],
  rules: readonly CategoryRule[],
): Promise<ModerationCorrectness> {
  const chosen = spreadByLength(corpus, SENTENCES);
  const client = new OpenAI({ baseURL: service.baseURL, apiKey: service.apiKey, maxRetries: 0 });
  const response = await client.moderations.create({
    model: service.model,
    input: chosen.map((s) => s.text),
  });
  let maxScoreDifference = 0;
  let allCategories = response.results.length === chosen.length;
  for (const [i, sentence] of chosen.entries()) {
    const scores = await direct.classify(sentence.text);
    const expected = applyCategoryMap([labels.map((label) => scores[label])], [rules]);
    const got = response.results[i]?.category_scores as unknown as Record<string, number>;
    allCategories &&= MODERATION_CATEGORIES.every(
      (category) => typeof got?.[category] === 'number',
    );
    for (const { category, score } of expected.categories) {
      maxScoreDifference = Math.max(maxScoreDifference, Math.abs((got?.[category] ?? NaN) - score));
    }
  }
  const pass = allCategories && maxScoreDifference <= MAX_SCORE_DIFFERENCE;
  return {
    sentences: chosen.length,
    maxScoreDifference,
    allCategories,
    pass,
    summary:
      `max |category score - reference| ${maxScoreDifference.toExponential(2)} over ` +
      `${chosen.length} sentences, ${allCategories ? 'all 13 categories listed' : 'CATEGORIES MISSING'}`,
  };
}
