// The grammar engine on SmolLM2's real vocabulary (the tiny-llama fixture's tokenizer), for the
// specs that step a constraint's masks token by token.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { loadChatTokenizer, loadLocalTokenizer, type ChatTokenizer } from '@tessera/text';
import type { SequenceConstraint } from '../src/grammar/constraint.contract';
import { XGrammarCompiler } from '../src/grammar/grammar.compiler';
import { readEncodedVocab } from '../src/grammar/tokenizer-vocab.reader';
import { TINY_LLAMA } from './tiny-models';

export const SMOLLM2_VOCAB = 49152;
export const SMOLLM2_EOS = 2;

export interface SmolLM2Grammar {
  readonly compiler: XGrammarCompiler;
  readonly tokenizer: ChatTokenizer;
  readonly encoder: PreTrainedTokenizer;
}

export async function loadSmolLM2Grammar(): Promise<SmolLM2Grammar> {
  const vocab = await readEncodedVocab(TINY_LLAMA);
  return {
    compiler: await XGrammarCompiler.create({
      vocab,
      vocabSize: SMOLLM2_VOCAB,
      eosTokenIds: [SMOLLM2_EOS],
    }),
    tokenizer: await loadChatTokenizer(TINY_LLAMA),
    encoder: await loadLocalTokenizer(TINY_LLAMA),
  };
}

/** The ids the constraint allows next. */
export async function allowedIds(constraint: SequenceConstraint): Promise<number[]> {
  await constraint.prepare();
  const row = new Float32Array(SMOLLM2_VOCAB);
  constraint.process(row);
  const ids: number[] = [];
  row.forEach((logit, id) => logit === 0 && ids.push(id));
  return ids;
}
