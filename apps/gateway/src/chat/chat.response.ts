// The Generate stream as OpenAI chat completion objects: the shapes both the streamed chunks
// (chat-chunks.ts) and the whole response (chat-completion.aggregate.ts) are made of, and what
// every object of one completion shares (id, created, model, system_fingerprint).
import { createHash, randomBytes } from 'node:crypto';
import type { TokenLogprob__Output, ToolCallDelta__Output, Usage } from '@tessera/contracts';
import type { ModelSpec } from '@tessera/models';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface OpenAITokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

export interface OpenAIChoiceLogprobs {
  content: OpenAITokenLogprob[];
  refusal: null;
}

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  // Always zero here, and present because clients read them (cached_tokens above all).
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

/** A call in a whole message: `arguments` is JSON text, exactly as the model wrote it. */
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * A piece of a streamed call, keyed by `index`: the first piece of a call has its `id`, `type`
 * and `function.name`; later pieces only append to `function.arguments`.
 */
export interface OpenAIToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

/** What every object of one completion carries, streamed or not. */
export interface CompletionIdentity {
  id: string;
  created: number;
  /** The model as served (its id, also when the request named an alias), as OpenAI does. */
  model: string;
  system_fingerprint: string;
}

export interface OpenAIChatCompletion extends CompletionIdentity {
  object: 'chat.completion';
  choices: {
    index: number;
    /** content is null when the answer is only tool calls; tool_calls only when there are some. */
    message: {
      role: 'assistant';
      content: string | null;
      refusal: null;
      tool_calls?: OpenAIToolCall[];
    };
    logprobs: OpenAIChoiceLogprobs | null;
    finish_reason: FinishReason;
  }[];
  usage: OpenAIUsage;
}

export function completionIdentity(spec: ModelSpec): CompletionIdentity {
  return {
    id: `chatcmpl-${randomBytes(18).toString('base64url')}`,
    created: Math.floor(Date.now() / 1000),
    model: spec.id,
    system_fingerprint: systemFingerprint(spec),
  };
}

/**
 * Which backend configuration answered: the model's source, file and options. It changes when
 * the deployment changes what serves the model, which is when a seed may stop reproducing.
 */
function systemFingerprint(spec: ModelSpec): string {
  const served = JSON.stringify([spec.id, spec.source.raw, spec.file, spec.dtype, spec.options]);
  return `fp_${createHash('sha256').update(served).digest('hex').slice(0, 10)}`;
}

export function toOpenAILogprob(logprob: TokenLogprob__Output): OpenAITokenLogprob {
  return {
    token: logprob.token,
    logprob: logprob.logprob,
    bytes: [...logprob.bytes],
    top_logprobs: logprob.top_logprobs.map((top) => ({
      token: top.token,
      logprob: top.logprob,
      bytes: [...top.bytes],
    })),
  };
}

/** The service marks the first piece of a call by its id (proto3 sends '' for the others). */
export function toOpenAIToolCallDelta(delta: ToolCallDelta__Output): OpenAIToolCallDelta {
  if (delta.id === '') return { index: delta.index, function: { arguments: delta.arguments } };
  return {
    index: delta.index,
    id: delta.id,
    type: 'function',
    function: { name: delta.name, arguments: delta.arguments },
  };
}

export function toOpenAIUsage(usage: Usage | null | undefined): OpenAIUsage {
  const prompt = Number(usage?.prompt_tokens ?? 0);
  const completion = Number(usage?.completion_tokens ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** A finish reason from the service, checked (a bad one is the service's fault, not the user's). */
export function finishReasonOf(reason: string): FinishReason {
  if (reason === 'stop' || reason === 'length' || reason === 'tool_calls') return reason;
  if (reason === 'content_filter') return reason;
  throw new Error(`the chat service sent an unknown finish reason '${reason}'`);
}
