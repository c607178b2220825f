// A Generate request as the engine's ChatGeneration: content parts flattened to text, OpenAI's
// defaults filled in for what the client left out, and the checks that depend on the model
// (how many choices it gives, whether it sees images). Shapes and ranges were checked once, at
// the gateway.
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
  type PromptMessage,
  type SamplingOptions,
} from '@tessera/decoder';
import { responseFormatOf } from './response-format.mapper';
import { toolsOf } from './tools.mapper';

/** What the request is checked against: the model's id and its configured limits. */
export interface GenerationLimits {
  readonly model: string;
  /** Most choices (`n`) one request may ask for. */
  readonly maxN: number;
}

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
  const texts = message.content.map((part, partIndex) => {
    if (part.text !== undefined && part.text !== null) return part.text;
    // No model served today has a vision encoder (images arrive with issue 9's models).
    const param = `messages[${index}].content[${partIndex}]`;
    throw invalid(
      `The model '${limits.model}' does not accept images; send text content parts only.`,
      param,
      'image_not_supported',
    );
  });
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
