// A Generate request as the engine's ChatGeneration: content parts flattened to text, OpenAI's
// defaults filled in for what the client left out, and the checks that depend on the model
// (how many choices it gives, whether it sees images: image parts keep their order in `parts`).
// Shapes and ranges were checked once, at the gateway.
import { status } from '@grpc/grpc-js';
import {
  GrpcStatusError,
  type ChatMessage__Output,
  type GenerateRequest__Output,
  type SamplingParams__Output,
} from '@tessera/contracts';
import {
  DEFAULT_SAMPLING_OPTIONS,
  type ChatGeneration,
  type SamplingOptions,
} from '@tessera/decoder';
import type { ImageDetail, PromptContentPart, PromptMessage } from '@tessera/text';
import { responseFormatOf } from './response-format.mapper';
import { toolsOf } from './tools.mapper';

/** What the request is checked against: the model's id and its configured limits. */
export interface GenerationLimits {
  readonly model: string;
  /** Most choices (`n`) one request may ask for. */
  readonly maxN: number;
  /** Whether the model takes images (a vision encoder); absent: it does not. */
  readonly vision?: boolean;
}

const DETAILS = new Set<string>(['auto', 'low', 'high']);

const ROLES = new Set<string>(['system', 'developer', 'user', 'assistant', 'tool']);

const invalid = (message: string, param: string, code: string | null = null) =>
  new GrpcStatusError(status.INVALID_ARGUMENT, message, { param, code });

export function chatGenerationOf(
  request: GenerateRequest__Output,
  limits: GenerationLimits,
): ChatGeneration {
  const sampling = request.sampling;
  const n = sampling?.n || 1;
  if (n > limits.maxN) {
    throw invalid(
      `n is ${n}, but the model '${limits.model}' gives at most ${limits.maxN} choices per ` +
        `request; ask for fewer.`,
      'n',
    );
  }
  if (request.messages.length === 0) throw invalid('messages must not be empty.', 'messages');
  return {
    messages: request.messages.map((message, index) => promptMessageOf(message, index, limits)),
    sampling: samplingOptionsOf(sampling),
    n,
    maxTokens: sampling?.max_tokens,
    stop: sampling?.stop ?? [],
    logprobs: sampling?.logprobs ?? false,
    topLogprobs: sampling?.logprobs ? (sampling.top_logprobs ?? 0) : 0,
    ...responseFormatOf(request),
    ...toolsOf(request),
  };
}

function promptMessageOf(
  message: ChatMessage__Output,
  index: number,
  limits: GenerationLimits,
): PromptMessage {
  if (!ROLES.has(message.role)) {
    throw invalid(
      `messages[${index}].role '${message.role}' is not a chat role.`,
      `messages[${index}].role`,
    );
  }
  const parts = message.content.map((part, partIndex): PromptContentPart => {
    if (part.text !== undefined && part.text !== null) return { type: 'text', text: part.text };
    const param = `messages[${index}].content[${partIndex}]`;
    if (!limits.vision) {
      throw invalid(
        `The model '${limits.model}' does not accept images; send text content parts only.`,
        param,
        'image_not_supported',
      );
    }
    const image = part.image;
    // The gateway resolves every image URL (data: or fetched) into bytes before this call.
    if (!image || image.data.length === 0) {
      throw invalid(`${param} has no image bytes (the gateway resolves image URLs).`, param);
    }
    const detail = image.detail || 'auto';
    if (!DETAILS.has(detail)) {
      throw invalid(
        `${param}.detail '${detail}' is not one of auto, low, high.`,
        `${param}.detail`,
      );
    }
    return {
      type: 'image',
      image: {
        data: new Uint8Array(image.data),
        mimeType: image.mime_type,
        detail: detail as ImageDetail,
      },
    };
  });
  const texts = parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  const hasImage = parts.length > texts.length;
  const toolCalls = message.tool_calls.map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' },
  }));
  return {
    role: message.role as PromptMessage['role'],
    // Text parts are joined with a newline, as vLLM does (the spec leaves it open).
    content: texts.length === 0 && toolCalls.length > 0 ? null : texts.join('\n'),
    ...(message.name ? { name: message.name } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(message.tool_call_id ? { toolCallId: message.tool_call_id } : {}),
    ...(hasImage ? { parts } : {}),
  };
}

/** What the client set, over OpenAI's defaults (temperature 1, top_p 1, every other stage off). */
export function samplingOptionsOf(sampling: SamplingParams__Output | null): SamplingOptions {
  const given: Partial<Record<keyof SamplingOptions, unknown>> = {
    temperature: sampling?.temperature,
    topP: sampling?.top_p,
    topK: sampling?.top_k,
    minP: sampling?.min_p,
    seed: sampling?.seed,
    presencePenalty: sampling?.presence_penalty,
    frequencyPenalty: sampling?.frequency_penalty,
    repetitionPenalty: sampling?.repetition_penalty,
  };
  const set = Object.entries(given).filter(([, value]) => value !== undefined);
  return {
    ...DEFAULT_SAMPLING_OPTIONS,
    ...Object.fromEntries(set),
    logitBias: { ...(sampling?.logit_bias ?? {}) },
  };
}
