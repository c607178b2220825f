// The one-off correctness gate: the service's embeddings (through the OpenAI SDK, one request
// with several inputs) against the reference pipeline's, by cosine similarity, and the token
// counts the service reports against the reference tokenizer's.
import OpenAI from 'openai';
import type { DirectPipeline } from './direct-pipeline.reference';
import { spreadByLength, type BenchSentence } from '../lib/sentence.corpus';

/** Sentences compared: spread from the shortest to the longest of the corpus. */
const SENTENCES = 8;
/** The gate: every compared embedding at least this close to the reference's. */
export const MIN_COSINE = 0.9999;

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return dot / Math.sqrt(aa * bb);
}

export interface CorrectnessResult {
  readonly sentences: number;
  readonly minCosine: number;
  readonly tokensMatch: boolean;
  readonly pass: boolean;
  readonly summary: string;
}

export async function compareWithReference(
  service: { baseURL: string; apiKey: string; model: string },
  direct: DirectPipeline,
  corpus: readonly BenchSentence[],
): Promise<CorrectnessResult> {
  const chosen = spreadByLength(corpus, SENTENCES);
  const client = new OpenAI({ baseURL: service.baseURL, apiKey: service.apiKey, maxRetries: 0 });
  const response = await client.embeddings.create({
    model: service.model,
    input: chosen.map((s) => s.text),
  });
  let minCosine = 1;
  for (const [i, sentence] of chosen.entries()) {
    const expected = await direct.embed(sentence.text);
    minCosine = Math.min(minCosine, cosine(response.data[i].embedding, expected));
  }
  const tokens = chosen.reduce((sum, s) => sum + s.tokens, 0);
  const tokensMatch = response.usage.prompt_tokens === tokens;
  return {
    sentences: chosen.length,
    minCosine,
    tokensMatch,
    pass: minCosine >= MIN_COSINE && tokensMatch,
    summary:
      `min cosine ${minCosine.toFixed(6)} over ${chosen.length} sentences, token counts ` +
      (tokensMatch ? 'equal' : 'DIFFER'),
  };
}
