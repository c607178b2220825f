// POST /v1/chat/completions request: every field of the spec's CreateChatCompletionRequest, plus
// the sampling extensions top_k, min_p and repetition_penalty. Shapes and ranges are checked here,
// once; a field the spec does not define is a 400 naming it. What depends on the model (context
// length, vocabulary, the most choices, vision) is the chat service's to check.
import { z } from 'zod';
import { DEFAULT_CHAT_INPUTS, type ChatInputLimits } from '@tessera/config';
import type { GenerateRequest, SamplingParams } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { arrayWithin, boundedArray } from '../validation/bounded-array.schema';
import { parseBody, parseValue } from '../validation/parse-body';
import { parseMessages } from './chat-messages.request';
import { refuseUnhonoured } from './chat-parameters.policy';
import { responseFormatOf } from './response-format.request';
import { MAX_TOOLS, toolsOf } from './tools.request';

const UINT32_MAX = 2 ** 32 - 1;
/** OpenAI's seed is an int64; JSON numbers past 2^53 arrive rounded, which is still one seed. */
const INT64_LIMIT = 2 ** 63;
/** The spec's own bound; the model's configured `max_n` is checked by the service. */
const MAX_N = 128;
const MAX_STOPS = 4;

const TokenCount = z.int().min(1).max(UINT32_MAX);
const Penalty = z.number().min(-2).max(2);
const StringMap = (keys: number, keyLength: number, valueLength: number) =>
  z
    .record(z.string().max(keyLength), z.string().max(valueLength))
    .refine((map) => Object.keys(map).length <= keys, {
      error: `must have at most ${keys} keys`,
    });

const notStop = 'expected a string or an array of at most 4 strings';
const Stop = z.custom<string | unknown[]>(
  (value) => typeof value === 'string' || Array.isArray(value),
  { error: notStop },
);
const Stops = boundedArray(z.string().min(1), { max: MAX_STOPS });

/** Keys are token ids as strings (JSON object keys); checked in logitBiasOf. */
const LogitBias = z.record(z.string(), z.number().min(-100).max(100));

const ChatCompletionRequestSchema = z.strictObject({
  model: z.string().min(1),
  // Its length is a setting, checked by parseMessages before any message is read.
  messages: arrayWithin({ min: 1 }),

  // Honoured.
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.int().min(1).max(MAX_N).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z
    .strictObject({
      include_usage: z.boolean().optional(),
      // Padding against length side channels: Tessera sends none; the content is the same.
      include_obfuscation: z.boolean().optional(),
    })
    .nullish(),
  stop: Stop.nullish(),
  max_tokens: TokenCount.nullish(),
  max_completion_tokens: TokenCount.nullish(),
  presence_penalty: Penalty.nullish(),
  frequency_penalty: Penalty.nullish(),
  logit_bias: LogitBias.nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.int().min(0).max(20).nullish(),
  seed: z
    .number()
    .refine(Number.isInteger, { error: 'must be an integer' })
    .min(-INT64_LIMIT)
    .max(INT64_LIMIT)
    .nullish(),
  // Extensions (vLLM, llama.cpp and TGI take them too); −1 and 0 turn top_k off.
  top_k: z.int().min(-1).max(UINT32_MAX).nullish(),
  min_p: z.number().min(0).max(1).nullish(),
  repetition_penalty: z.number().gt(0).max(100).nullish(),

  // Accepted; none of them changes the output (chat-parameters.policy.ts and docs/chat.md).
  user: z.string().nullish(),
  safety_identifier: z.string().max(64).nullish(),
  metadata: StringMap(16, 64, 512).nullish(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority', 'fast']).nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullish(),
  prompt_cache_options: z
    .strictObject({
      ttl: z.enum(['30m']).optional(),
      mode: z.enum(['implicit', 'explicit']).optional(),
    })
    .nullish(),

  // Accepted for the values that change nothing, refused otherwise (chat-parameters.policy.ts).
  store: z.boolean().nullish(),
  modalities: boundedArray(z.enum(['text', 'audio']), { max: 2 }).nullish(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
  response_format: z
    .looseObject({ type: z.enum(['text', 'json_object', 'json_schema']) })
    .nullish(),
  // Checked and mapped in tools.request.ts (each value's own path in every refusal).
  tools: arrayWithin({ max: MAX_TOOLS }).nullish(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullish(),
  // Refused when not empty (chat-parameters.policy.ts): its items are never read.
  functions: arrayWithin({}).nullish(),
  function_call: z.unknown().optional(),
  audio: z.unknown().optional(),
  prediction: z.unknown().optional(),
  web_search_options: z.unknown().optional(),
  moderation: z.unknown().optional(),
});

export interface ChatCompletionRequest {
  /** As the client sent it (an id or an alias). */
  model: string;
  stream: boolean;
  /** stream_options.include_usage: a last chunk with the usage. */
  includeUsage: boolean;
  /** The Generate call, but for the model id the router resolves. */
  generate: Required<Pick<GenerateRequest, 'messages' | 'sampling' | 'user'>> &
    Pick<GenerateRequest, 'response_format' | 'tools' | 'tool_choice' | 'parallel_tool_calls'> & {
      sampling: SamplingParams;
    };
}

export function parseChatCompletionRequest(
  body: unknown,
  limits: ChatInputLimits = DEFAULT_CHAT_INPUTS,
): ChatCompletionRequest {
  const parsed = parseBody(ChatCompletionRequestSchema, body);
  refuseUnhonoured(parsed);
  if (parsed.stream_options != null && parsed.stream !== true) {
    throw OpenAIError.badRequest(
      "Invalid 'stream_options': only allowed when 'stream' is true.",
      'stream_options',
    );
  }
  if (parsed.top_logprobs != null && parsed.top_logprobs > 0 && parsed.logprobs !== true) {
    throw OpenAIError.badRequest(
      "Invalid 'top_logprobs': 'logprobs' must be true when 'top_logprobs' is set.",
      'top_logprobs',
    );
  }
  const { max_tokens, max_completion_tokens } = parsed;
  if (max_tokens != null && max_completion_tokens != null && max_tokens !== max_completion_tokens) {
    throw OpenAIError.badRequest(
      "Invalid 'max_tokens': it differs from 'max_completion_tokens'; send only one of them.",
      'max_tokens',
    );
  }
  const messages = parseMessages(parsed.messages, limits);
  return {
    model: parsed.model,
    stream: parsed.stream === true,
    includeUsage: parsed.stream_options?.include_usage === true,
    generate: {
      messages,
      sampling: samplingOf(parsed),
      user: parsed.user ?? '',
      response_format: responseFormatOf(parsed.response_format, messages),
      ...toolsOf(parsed),
    },
  };
}

type ParsedRequest = z.infer<typeof ChatCompletionRequestSchema>;

/** What the client set; the service fills in OpenAI's defaults for the rest. */
function samplingOf(parsed: ParsedRequest): SamplingParams {
  const maxTokens = parsed.max_completion_tokens ?? parsed.max_tokens;
  const sampling: SamplingParams = {
    logit_bias: logitBiasOf(parsed.logit_bias),
    stop: stopsOf(parsed.stop),
    logprobs: parsed.logprobs === true,
    top_logprobs: parsed.top_logprobs ?? 0,
    n: parsed.n ?? 1,
  };
  const optional: Partial<SamplingParams> = {
    temperature: parsed.temperature ?? undefined,
    top_p: parsed.top_p ?? undefined,
    top_k: parsed.top_k != null && parsed.top_k > 0 ? parsed.top_k : undefined,
    min_p: parsed.min_p ?? undefined,
    seed: parsed.seed ?? undefined,
    presence_penalty: parsed.presence_penalty ?? undefined,
    frequency_penalty: parsed.frequency_penalty ?? undefined,
    repetition_penalty: parsed.repetition_penalty ?? undefined,
    max_tokens: maxTokens ?? undefined,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(sampling, { [key]: value });
  }
  return sampling;
}

/** Token ids from the keys; whether each is in the vocabulary is the service's to check. */
function logitBiasOf(bias: Record<string, number> | null | undefined): Record<number, number> {
  return Object.fromEntries(
    Object.entries(bias ?? {}).map(([key, value]) => {
      const id = /^\d{1,10}$/.test(key) ? Number(key) : NaN;
      if (!(id <= UINT32_MAX)) {
        throw OpenAIError.badRequest(
          `Invalid 'logit_bias': '${key.slice(0, 40)}' is not a token id; the keys are token ` +
            `ids (integers from 0 to ${UINT32_MAX}, as strings).`,
          'logit_bias',
        );
      }
      return [id, value];
    }),
  );
}

function stopsOf(stop: string | unknown[] | null | undefined): string[] {
  if (stop == null) return [];
  if (typeof stop === 'string') return [parseValue(z.string().min(1), stop, ['stop'])];
  return parseValue(Stops, stop, ['stop']);
}
