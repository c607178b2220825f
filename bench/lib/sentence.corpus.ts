// The benchmark's inputs: deterministic pseudo-English sentences whose token counts are spread
// evenly over a range, made from the model's own whole-word vocabulary so that each word is
// (almost always) one token. The same seed gives the same sentences on every machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../lib/seeded.random';

export interface BenchSentence {
  readonly text: string;
  /** Token count with special tokens, as the model's tokenizer counts it. */
  readonly tokens: number;
}

export interface SentenceCorpusOptions {
  readonly modelDir: string;
  readonly count: number;
  readonly minTokens: number;
  readonly maxTokens: number;
  readonly seed: number;
  /** Token count of a text with special tokens (the reference pipeline's tokenizer). */
  readonly countTokens: (text: string) => number;
}

/** Common whole words of a WordPiece vocabulary (vocab.txt lists ids in frequency order). */
function commonWords(modelDir: string, limit = 8000): string[] {
  const words = readFileSync(join(modelDir, 'vocab.txt'), 'utf8')
    .split('\n')
    .filter((entry) => /^[a-z]{3,12}$/.test(entry));
  if (words.length < 100) throw new Error(`${modelDir}/vocab.txt has too few whole words`);
  return words.slice(0, limit);
}

function render(words: readonly string[]): string {
  const text = `${words.join(' ')}.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function buildSentenceCorpus(options: SentenceCorpusOptions): BenchSentence[] {
  const { count, minTokens, maxTokens, countTokens } = options;
  const random = seededRandom(options.seed);
  const words = commonWords(options.modelDir);
  const pick = () => words[Math.floor(random() * words.length)];
  const sentences: BenchSentence[] = [];
  for (let i = 0; i < count; i++) {
    const target = minTokens + Math.floor(random() * (maxTokens - minTokens + 1));
    // [CLS] and [SEP] plus the final full stop: three tokens besides the words.
    const chosen = Array.from({ length: Math.max(1, target - 3) }, pick);
    let text = render(chosen);
    let tokens = countTokens(text);
    // A word the tokenizer splits makes the sentence longer than planned: drop words.
    while (tokens > target && chosen.length > 1) {
      chosen.pop();
      text = render(chosen);
      tokens = countTokens(text);
    }
    sentences.push({ text, tokens });
  }
  return sentences;
}

/** `count` sentences spread evenly from the shortest to the longest (for correctness gates). */
export function spreadByLength(corpus: readonly BenchSentence[], count: number): BenchSentence[] {
  const byLength = [...corpus].sort((a, b) => a.tokens - b.tokens);
  const step = (byLength.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => byLength[Math.round(i * step)]);
}
