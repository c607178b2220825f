// A conversation as the chat template takes it: the messages, their content parts (text and
// images) and the tools on offer. Text renders it; the decoder engine carries it through its
// request, so it lives here and the dependency points one way (decoder → text). Plain data: it
// crosses a thread boundary (structured clone).

/** OpenAI's image_url.detail, applied to the image processor (see docs/chat.md, "Images"). */
export type ImageDetail = 'auto' | 'low' | 'high';

/** An image part's bytes, already fetched or decoded from its data: URL by the gateway. */
export interface ImageInput {
  readonly data: Uint8Array;
  readonly mimeType: string;
  readonly detail: ImageDetail;
}

/** One content part of a message, in the order the client sent them. */
export type PromptContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly image: ImageInput };

/** A message as the chat template sees it (content already flattened to text parts). */
export interface PromptMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  /** Text parts joined in order; null only for an assistant message that has tool calls. */
  readonly content: string | null;
  readonly name?: string;
  /** Passed through to templates that render tool calls. */
  readonly toolCalls?: readonly {
    readonly id: string;
    readonly type: 'function';
    readonly function: { readonly name: string; readonly arguments: string };
  }[];
  readonly toolCallId?: string;
  /**
   * Set only when the message has an image: every part in order (the text parts are also
   * joined in `content`). Only a model with a vision encoder takes it.
   */
  readonly parts?: readonly PromptContentPart[];
}

/** A function the model may call; `parameters` is a JSON Schema object as JSON text. */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  /** JSON text of an object schema; absent: the function takes no parameters. */
  readonly parameters?: string;
  readonly strict: boolean;
}
