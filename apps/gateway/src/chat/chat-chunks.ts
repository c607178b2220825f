// The Generate stream as `chat.completion.chunk` events, as OpenAI streams them: per choice a
// first chunk with the role (content ""), then content deltas (with their logprobs when asked),
// then exactly one chunk with a finish_reason; with include_usage every chunk has `usage: null`
// and a last chunk has `choices: []` and the usage. `[DONE]` is the SSE writer's.
import type { GenerateResponse__Output } from '@tessera/contracts';
import type { UpstreamStream } from '../upstream/upstream.streams';
import {
  finishReasonOf,
  toOpenAILogprob,
  toOpenAIToolCallDelta,
  toOpenAIUsage,
  type CompletionIdentity,
  type FinishReason,
  type OpenAIChoiceLogprobs,
  type OpenAIToolCallDelta,
  type OpenAIUsage,
} from './chat.response';

export interface OpenAIChatCompletionChunk extends CompletionIdentity {
  object: 'chat.completion.chunk';
  choices: {
    index: number;
    delta: {
      role?: 'assistant';
      content?: string;
      refusal?: null;
      tool_calls?: OpenAIToolCallDelta[];
    };
    logprobs: OpenAIChoiceLogprobs | null;
    finish_reason: FinishReason | null;
  }[];
  usage?: OpenAIUsage | null;
}

export interface ChunkOptions {
  includeUsage: boolean;
  logprobs: boolean;
}

export class ChatChunkMapper {
  private readonly started = new Set<number>();

  constructor(
    private readonly identity: CompletionIdentity,
    private readonly options: ChunkOptions,
  ) {}

  /** The chunks one frame of the Generate stream becomes (none for an empty delta). */
  chunksOf(frame: GenerateResponse__Output): OpenAIChatCompletionChunk[] {
    const index = frame.choice_index;
    const chunks: OpenAIChatCompletionChunk[] = [];
    if (!this.started.has(index)) {
      this.started.add(index);
      chunks.push(
        this.chunk([
          {
            index,
            delta: { role: 'assistant', content: '', refusal: null },
            logprobs: null,
            finish_reason: null,
          },
        ]),
      );
    }
    if (frame.delta) {
      const { content, logprobs } = frame.delta;
      if (content !== '' || logprobs.length > 0) {
        chunks.push(
          this.chunk([
            {
              index,
              delta: { content },
              logprobs: this.options.logprobs
                ? { content: logprobs.map(toOpenAILogprob), refusal: null }
                : null,
              finish_reason: null,
            },
          ]),
        );
      }
    }
    // Text a frame carries comes before its calls in the model's output.
    if (frame.delta?.tool_calls.length) {
      const calls = frame.delta.tool_calls.map(toOpenAIToolCallDelta);
      chunks.push(
        this.chunk([{ index, delta: { tool_calls: calls }, logprobs: null, finish_reason: null }]),
      );
    }
    if (frame.finish) {
      const reason = finishReasonOf(frame.finish.finish_reason);
      chunks.push(this.chunk([{ index, delta: {}, logprobs: null, finish_reason: reason }]));
      // The service sets the usage on the last frame of the whole request.
      if (frame.finish.usage && this.options.includeUsage) {
        chunks.push({ ...this.chunk([]), usage: toOpenAIUsage(frame.finish.usage) });
      }
    }
    return chunks;
  }

  private chunk(choices: OpenAIChatCompletionChunk['choices']): OpenAIChatCompletionChunk {
    return {
      ...this.identity,
      object: 'chat.completion.chunk',
      choices,
      ...(this.options.includeUsage ? { usage: null } : {}),
    };
  }
}

/** The chunks of a Generate stream, pulled one frame at a time; cancel() ends the call. */
export function chatChunks(
  frames: UpstreamStream<GenerateResponse__Output>,
  mapper: ChatChunkMapper,
): UpstreamStream<OpenAIChatCompletionChunk> {
  return {
    cancel: () => frames.cancel(),
    async *[Symbol.asyncIterator]() {
      for await (const frame of frames) yield* mapper.chunksOf(frame);
    },
  };
}
