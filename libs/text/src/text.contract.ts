// What the decoder engine and the chat service use from @tessera/text; implemented in this
// library. Fixed up front so the engine and the text work can be built apart.
import type { PromptMessage } from '@tessera/decoder';

export interface ChatTokenizer {
  /**
   * Token ids of the rendered chat template (generation prompt added, no extra BOS/EOS).
   * Throws ChatTemplateError (a 400 on `messages`) when the template refuses the conversation.
   * With `limit`: a prompt whose length alone shows it has more than `limit` tokens is not
   * tokenized (bounded work for huge messages); throws PromptTooLongError with that count.
   */
  encodeChat(messages: readonly PromptMessage[], limit?: number): number[];
  /** The rendered prompt text (for tests and logs). */
  renderChat(messages: readonly PromptMessage[]): string;
  /**
   * Token ids of text already rendered (special tokens in it are recognised, none added): a
   * vision model's prompt once its image placeholders are expanded.
   */
  encodeText(text: string): number[];
  /** Rows of the tokenizer's vocabulary (added tokens included). */
  readonly vocabSize: number;
  /** Starts the text pipeline of one generated sequence. */
  detokenizer(stop: readonly string[]): SequenceDetokenizer;
  /** A token as logprobs show it: its text and its exact UTF-8 bytes. */
  tokenInfo(tokenId: number): { readonly token: string; readonly bytes: readonly number[] };
}

/** One sequence's tokens → text deltas, holding back what may still become a stop string. */
export interface SequenceDetokenizer {
  /**
   * Adds a generated token; returns the text now safe to emit ('' while held back) and whether a
   * stop string was completed (the stop and everything after it are never emitted).
   */
  push(tokenId: number): { readonly text: string; readonly stopped: boolean };
  /** At the end of the sequence (EOS or length): the held-back text that is not a stop. */
  flush(): string;
}
