// The Classify reply as OpenAI's CreateModerationResponse: per result, the 13 categories as
// three objects keyed by category (flagged, score, applied input types). The service reports
// every category, covered or not (an uncovered one scores 0 and is never flagged); one that is
// missing is a broken contract, answered as a server error rather than filled in here.
import { randomUUID } from 'node:crypto';
import {
  MODERATION_CATEGORIES,
  type ClassifyResponse__Output,
  type ModerationCategory,
  type ModerationResult__Output,
} from '@tessera/contracts';

type ByCategory<T> = Record<ModerationCategory, T>;
/** What a category's score was computed from (the spec allows "image" for six of them). */
type AppliedInputType = 'text' | 'image';

export interface OpenAIModerationResult {
  flagged: boolean;
  categories: ByCategory<boolean>;
  category_scores: ByCategory<number>;
  category_applied_input_types: ByCategory<AppliedInputType[]>;
}

export interface OpenAIModerationResponse {
  id: string;
  model: string;
  results: OpenAIModerationResult[];
}

export function toOpenAIModeration(
  response: Pick<ClassifyResponse__Output, 'model' | 'results'>,
  model: string,
  inputs: number,
): OpenAIModerationResponse {
  if (response.results.length !== inputs) {
    throw new Error(
      `the moderation service returned ${response.results.length} results for ${inputs} inputs`,
    );
  }
  return {
    // As OpenAI's: "modr-" and 32 hex digits. From randomUUID, which draws from a pool it refills
    // every 128 ids: randomBytes runs OpenSSL's generator on every call (~40 µs a request at
    // c=1, measured).
    id: `modr-${randomUUID().replaceAll('-', '')}`,
    model,
    results: response.results.map(toResult),
  };
}

function toResult(result: ModerationResult__Output): OpenAIModerationResult {
  const byName = new Map(result.categories.map((category) => [category.category, category]));
  const categories = {} as ByCategory<boolean>;
  const scores = {} as ByCategory<number>;
  const applied = {} as ByCategory<AppliedInputType[]>;
  for (const name of MODERATION_CATEGORIES) {
    const category = byName.get(name);
    if (!category) {
      throw new Error(`the moderation service left out category '${name}'`);
    }
    categories[name] = category.flagged;
    scores[name] = category.score;
    applied[name] = category.applied_input_types as AppliedInputType[];
  }
  return {
    flagged: result.flagged,
    categories,
    category_scores: scores,
    category_applied_input_types: applied,
  };
}
