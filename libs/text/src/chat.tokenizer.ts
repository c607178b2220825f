// A chat model's tokenizer as the engine uses it: the chat template rendered with transformers.js
// (equal to Python transformers' apply_chat_template), prompt ids with the client's text read as
// text (prompt-text.encoder.ts), token bytes for logprobs and per-sequence detokenizers.
import type { Message, PreTrainedTokenizer } from '@huggingface/transformers';
import type { PromptMessage, ToolDefinition } from './prompt.contract';
import { ByteStreamDecoder } from './byte-stream.decoder';
import { escapeMessages, escapeTools } from './chat-input.escape';
import { ChatTemplateError } from './chat-template.errors';
import { loadChatTemplate } from './chat-template.loader';
import { PromptLengthBound, PromptTooLongError } from './prompt-length.bound';
import {
  templateHasDeveloperRole,
  templateTakesParts,
  toTemplateMessages,
  type TemplateMessage,
} from './chat-template.messages';
import { PromptTextEncoder } from './prompt-text.encoder';
import { StreamingDetokenizer } from './sequence.detokenizer';
import { sectionsText } from './special-text.escape';
import type { ChatTokenizer, SequenceDetokenizer } from './text.contract';
import {
  detectToolCallFormat,
  TOOL_CALL_SYNTAX,
  templateRendersToolCalls,
  templateRendersTools,
  type ToolCallFormatName,
} from './tool-calls/tool-call.formats';
import { fallbackToolsPrompt, withFallbackTools } from './tool-calls/tool-prompt.fallback';
import { TokenBytes, type TokenizerJson } from './token.bytes';
import { loadLocalTokenizer } from './tokenizer.loader';
import { WindowDecoder } from './window.decoder';

export interface ChatTokenizerOptions {
  /** The models file's `tool_call_format`: wins over the one detected from the template. */
  readonly toolCallFormat?: ToolCallFormatName;
}

export async function loadChatTokenizer(
  modelDir: string,
  options: ChatTokenizerOptions = {},
): Promise<ChatTokenizer> {
  const tokenizer = await loadLocalTokenizer(modelDir);
  const template = await loadChatTemplate(
    modelDir,
    tokenizer._tokenizerConfig as { chat_template?: unknown },
  );
  const chat = new TemplateChatTokenizer(tokenizer, template, options.toolCallFormat);
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

/**
 * Tool-call markup that some tokenizers hold as special tokens ('[TOOL_CALLS]' of Mistral v3,
 * '<|python_tag|>' of Llama 3): kept in the text, as vLLM keeps them for its tool parsers, so the
 * parser sees where a call starts. Other special tokens are skipped as before.
 */
const TOOL_MARKUP = new Set(
  Object.values(TOOL_CALL_SYNTAX).flatMap((syntax) => syntax.triggers.map((t) => t.text)),
);

/** Each tool on its own line, by the template engine's tojson (as Qwen2.5's template prints). */
const TOOL_LINES_TEMPLATE = '{%- for tool in tools %}{{ "\n" }}{{ tool | tojson }}{%- endfor %}';

class TemplateChatTokenizer implements ChatTokenizer {
  readonly vocabSize: number;
  readonly toolCallFormat: ToolCallFormatName | undefined;
  private readonly developerRole: boolean;
  private readonly nativeTools: boolean;
  private readonly nativeToolCalls: boolean;
  private readonly takesParts: boolean;
  private readonly specialIds: ReadonlySet<number>;
  private readonly tokenBytes: TokenBytes;
  private readonly lengthBound?: PromptLengthBound;
  private readonly promptText: PromptTextEncoder;

  constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly template: string,
    toolCallFormat: ToolCallFormatName | undefined,
  ) {
    this.developerRole = templateHasDeveloperRole(template);
    this.takesParts = templateTakesParts(template);
    this.toolCallFormat = toolCallFormat ?? detectToolCallFormat(template);
    this.nativeTools = templateRendersTools(template);
    this.nativeToolCalls = templateRendersToolCalls(template);
    this.promptText = new PromptTextEncoder(tokenizer);
    this.specialIds = new Set(
      tokenizer.all_special_ids.filter(
        (id) => !TOOL_MARKUP.has(tokenizer._tokenizer.id_to_token(id) ?? ''),
      ),
    );
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

  renderChat(messages: readonly PromptMessage[], tools: readonly ToolDefinition[] = []): string {
    return sectionsText(this.promptText.escape.split(this.renderEscaped(messages, tools)));
  }

  encodeChat(
    messages: readonly PromptMessage[],
    limit?: number,
    tools: readonly ToolDefinition[] = [],
  ): number[] {
    const sections = this.promptText.escape.split(this.renderEscaped(messages, tools));
    const minTokens = this.lengthBound?.minTokens(sectionsText(sections)) ?? 0;
    if (limit !== undefined && minTokens > limit) throw new PromptTooLongError(minTokens);
    return this.promptText.encode(sections);
  }

  encodeChatWithImages(
    messages: readonly PromptMessage[],
    expandImages: (rendered: string) => string,
  ): number[] {
    const rendered = expandImages(this.renderEscaped(messages, []));
    return this.promptText.encode(this.promptText.escape.split(rendered));
  }

  /**
   * The template's rendering with every client string escaped (special-text.escape.ts): the
   * special tokens in it are the template's own.
   */
  private renderEscaped(
    clientMessages: readonly PromptMessage[],
    clientTools: readonly ToolDefinition[],
  ): string {
    const escape = this.promptText.escape;
    const templateTools = escapeTools(escape, clientTools).map(templateToolOf);
    let conversation = escapeMessages(escape, clientMessages);
    // A template without a tools section (or without assistant tool calls) gets them written
    // into the messages in the model's call format instead (tool-prompt.fallback.ts); that
    // markup is the server's, written after the escape.
    const fallbackTools = templateTools.length > 0 && !this.nativeTools;
    if (fallbackTools || !this.nativeToolCalls) {
      const format = this.toolCallFormat ?? 'hermes';
      const prompt = fallbackTools
        ? fallbackToolsPrompt(format, this.render([], TOOL_LINES_TEMPLATE, templateTools))
        : undefined;
      conversation = withFallbackTools(conversation, format, prompt);
    }
    return this.render(
      toTemplateMessages(conversation, this.developerRole, this.takesParts),
      this.template,
      this.nativeTools && templateTools.length > 0 ? templateTools : undefined,
    );
  }

  private render(
    messages: readonly TemplateMessage[],
    template: string,
    tools: readonly TemplateTool[] | undefined,
  ): string {
    try {
      return this.tokenizer.apply_chat_template(messages as unknown as Message[], {
        chat_template: template,
        add_generation_prompt: true,
        tokenize: false,
        ...(tools !== undefined ? { tools: tools as unknown as object[] } : {}),
      });
    } catch (error) {
      throw new ChatTemplateError(error);
    }
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

/** A tool as OpenAI's request and Hugging Face templates both write it. */
interface TemplateTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

function templateToolOf(tool: ToolDefinition): TemplateTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      ...(tool.parameters !== undefined
        ? { parameters: JSON.parse(tool.parameters) as unknown }
        : {}),
    },
  };
}
