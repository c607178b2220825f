// The vocabulary as XGrammar's TokenizerInfo wants it: every token's ENCODED string by id (as
// tokenizer.json spells it, added tokens included) and how to decode those strings to bytes —
// 'byte_level' for GPT-2-style BPE (SmolLM2, Qwen, Llama 3), 'byte_fallback' for SentencePiece
// with <0xAB> tokens (Llama 2, Mistral), 'raw' otherwise — the same detection XGrammar's Python
// TokenizerInfo.from_huggingface does from the tokenizer's decoder.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type VocabType = 'byte_level' | 'byte_fallback' | 'raw';

export interface EncodedVocab {
  /** Index = token id; ids no token uses are ''. */
  readonly tokens: string[];
  readonly vocabType: VocabType;
  /** SentencePiece models that prepend "▁" to the text before tokenizing. */
  readonly prependSpace: boolean;
}

interface Step {
  readonly type?: string;
  readonly [key: string]: unknown;
}

interface TokenizerFile {
  readonly model?: { readonly vocab?: Record<string, number> | [string, number][] };
  readonly added_tokens?: readonly { readonly id: number; readonly content: string }[];
  readonly decoder?: Step;
  readonly normalizer?: Step;
  readonly pre_tokenizer?: Step;
}

/** A Sequence's steps, flattened. */
function steps(step: Step | null | undefined): Step[] {
  if (!step) return [];
  const nested = (step.decoders ?? step.normalizers ?? step.pretokenizers) as Step[] | undefined;
  return step.type === 'Sequence' ? (nested ?? []).flatMap(steps) : [step];
}

export async function readEncodedVocab(modelDir: string): Promise<EncodedVocab> {
  const json = JSON.parse(
    await readFile(join(modelDir, 'tokenizer.json'), 'utf8'),
  ) as TokenizerFile;
  const byId = new Map<number, string>();
  const vocab = json.model?.vocab ?? {};
  if (Array.isArray(vocab)) {
    // Unigram: [piece, score] in id order.
    vocab.forEach(([piece], id) => byId.set(id, piece));
  } else {
    for (const [piece, id] of Object.entries(vocab)) byId.set(id, piece);
  }
  for (const { id, content } of json.added_tokens ?? []) byId.set(id, content);
  const size = Math.max(-1, ...byId.keys()) + 1;
  const tokens = new Array<string>(size).fill('');
  for (const [id, piece] of byId) tokens[id] = piece;

  const decoders = steps(json.decoder);
  const vocabType: VocabType = decoders.some((s) => s.type === 'ByteLevel')
    ? 'byte_level'
    : decoders.some((s) => s.type === 'ByteFallback')
      ? 'byte_fallback'
      : 'raw';
  const prependSpace =
    steps(json.normalizer).some((s) => s.type === 'Prepend' && s.prepend === '\u2581') ||
    steps(json.pre_tokenizer).some(
      (s) =>
        s.type === 'Metaspace' &&
        (s.add_prefix_space === true ||
          s.prepend_scheme === 'always' ||
          s.prepend_scheme === 'first'),
    );
  return { tokens, vocabType, prependSpace };
}
