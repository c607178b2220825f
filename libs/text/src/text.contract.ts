// What the decoder engine and the chat service use from @tessera/text; implemented in this
// library. Fixed up front so the engine and the text work can be built apart.
import type { PromptMessage, ToolDefinition } from './prompt.contract';
import type { ToolCallFormatName } from './tool-calls/tool-call.formats';

export interface ChatTokenizer {
  /**
   * Token ids of the rendered chat template (generation prompt added, no extra BOS/EOS). The
   * client's text is tokenized as text: a special token written in a message is not that
   * token; only the template places special tokens.
   * Throws ChatTemplateError (a 400 on `messages`) when the template refuses the conversation.
   * With `limit`: a prompt whose length alone shows it has more than `limit` tokens is not
   * tokenized (bounded work for huge messages); throws PromptTooLongError with that count.
   * `tools` are rendered by the template (apply_chat_template's `tools`), or by the fallback
   * prompt when the template has no tools section (docs/chat.md, "Formats and enforcement").
   */
  encodeChat(
    messages: readonly PromptMessage[],
    limit?: number,
    tools?: readonly ToolDefinition[],
  ): number[];
  /** The rendered prompt text (for tests and logs). */
  renderChat(messages: readonly PromptMessage[], tools?: readonly ToolDefinition[]): string;
  /**
   * The format the model writes tool calls in: the models file's `tool_call_format`, else the
   * one its template asks for; undefined for a template whose tool format is not known.
   */
  readonly toolCallFormat: ToolCallFormatName | undefined;
  /**
   * encodeChat for a prompt with images (no tools, no length pre-check): `expandImages`
   * rewrites the rendering before it is tokenized (a vision model's image placeholders into its
   * image tokens). The placeholders it finds are the template's: the same text in a message is
   * escaped there (special-text.escape.ts) and stays text.
   */
  encodeChatWithImages(
    messages: readonly PromptMessage[],
    expandImages: (rendered: string) => string,
  ): number[];
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
