// A chat model's tokenizer as the engine uses it: the chat template rendered with transformers.js
// (equal to Python transformers' apply_chat_template), prompt ids, token bytes for logprobs and
// per-sequence detokenizers.
import type { Message, PreTrainedTokenizer } from '@huggingface/transformers';
import type { PromptMessage } from '@tessera/decoder';
import { ByteStreamDecoder } from './byte-stream.decoder';
import { ChatTemplateError } from './chat-template.errors';
import { loadChatTemplate } from './chat-template.loader';
import { PromptLengthBound, PromptTooLongError } from './prompt-length.bound';
import {
  templateHasDeveloperRole,
  templateTakesParts,
  toTemplateMessages,
} from './chat-template.messages';
import { StreamingDetokenizer } from './sequence.detokenizer';
import type { ChatTokenizer, SequenceDetokenizer } from './text.contract';
import { TokenBytes, type TokenizerJson } from './token.bytes';
import { loadLocalTokenizer } from './tokenizer.loader';
import { WindowDecoder } from './window.decoder';

export async function loadChatTokenizer(modelDir: string): Promise<ChatTokenizer> {
  const tokenizer = await loadLocalTokenizer(modelDir);
  const template = await loadChatTemplate(
    modelDir,
    tokenizer._tokenizerConfig as { chat_template?: unknown },
  );
  const chat = new TemplateChatTokenizer(tokenizer, template);
  try {
    // Compiles the template now: one that cannot render a lone user message is broken, and the
    // model must not load (rather than fail every request).
    chat.renderChat([{ role: 'user', content: 'Hello' }]);
  } catch (error) {
    throw new Error(`${modelDir}: the chat template does not render: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return chat;
}

class TemplateChatTokenizer implements ChatTokenizer {
  readonly vocabSize: number;
  private readonly developerRole: boolean;
  private readonly takesParts: boolean;
  private readonly specialIds: ReadonlySet<number>;
  private readonly tokenBytes: TokenBytes;
  private readonly lengthBound?: PromptLengthBound;

  constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly template: string,
  ) {
    this.developerRole = templateHasDeveloperRole(template);
    this.takesParts = templateTakesParts(template);
    this.specialIds = new Set(tokenizer.all_special_ids);
    // The highest id + 1, not the count: ids an export leaves unused still index logits rows.
    let maxId = -1;
    for (const id of tokenizer.get_vocab().values()) maxId = Math.max(maxId, id);
    this.vocabSize = maxId + 1;
    const added = new Map<number, string>();
    for (const [id, token] of tokenizer._tokenizer.get_added_tokens_decoder()) {
      added.set(id, token.content);
    }
    const json = tokenizer._tokenizerJSON as TokenizerJson & { normalizer?: unknown };
    this.tokenBytes = new TokenBytes(json, added, (id) => tokenizer._tokenizer.id_to_token(id));
    this.lengthBound = PromptLengthBound.of(
      this.tokenBytes.byteLevel,
      json.normalizer,
      [...tokenizer.get_vocab().values(), ...added.keys()],
      (id) => this.tokenBytes.bytes(id),
    );
  }

  renderChat(messages: readonly PromptMessage[]): string {
    try {
      return this.tokenizer.apply_chat_template(
        toTemplateMessages(messages, this.developerRole, this.takesParts) as unknown as Message[],
        { chat_template: this.template, add_generation_prompt: true, tokenize: false },
      );
    } catch (error) {
      throw new ChatTemplateError(error);
    }
  }

  encodeChat(messages: readonly PromptMessage[], limit?: number): number[] {
    const text = this.renderChat(messages);
    const minTokens = this.lengthBound?.minTokens(text) ?? 0;
    if (limit !== undefined && minTokens > limit) throw new PromptTooLongError(minTokens);
    // The template already writes the BOS/role tokens: adding special tokens again would double
    // them (SmolLM2 adds <|im_start|> as BOS), as Python's apply_chat_template(tokenize=True)
    // also avoids.
    return this.encodeText(text);
  }

  encodeText(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false });
  }

  detokenizer(stop: readonly string[]): SequenceDetokenizer {
    const decoder = this.tokenBytes.byteLevel
      ? new ByteStreamDecoder((id) => this.tokenBytes.bytes(id))
      : new WindowDecoder((ids) => this.decode(ids));
    const skip = (id: number): boolean => this.specialIds.has(id) || !this.tokenBytes.has(id);
    return new StreamingDetokenizer(decoder, skip, stop);
  }

  tokenInfo(tokenId: number): { token: string; bytes: number[] } {
    return this.tokenBytes.info(tokenId);
  }

  /**
   * Text of ids as Python's decode(skip_special_tokens=True) gives it, but without
   * clean_up_tokenization_spaces: that rewrites " ." to "." and the like, which would change
   * what the model wrote (vLLM does not apply it to streamed text either).
   */
  private decode(ids: readonly number[]): string {
    if (ids.length === 0) return '';
    return this.tokenizer.decode(ids as number[], {
      skip_special_tokens: true,
      clean_up_tokenization_spaces: false,
    });
  }
}
