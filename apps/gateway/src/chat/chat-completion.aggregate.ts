// A whole (non-streamed) chat completion from the Generate stream: each choice's deltas joined,
// its tool calls assembled from their pieces (by index), its logprobs in order, its finish
// reason, and the usage the last frame carries.
import type { GenerateResponse__Output, ToolCallDelta__Output, Usage } from '@tessera/contracts';
import {
  finishReasonOf,
  toOpenAILogprob,
  toOpenAIUsage,
  type CompletionIdentity,
  type FinishReason,
  type OpenAIChatCompletion,
  type OpenAITokenLogprob,
  type OpenAIToolCall,
} from './chat.response';

interface ChoiceSoFar {
  content: string;
  toolCalls: OpenAIToolCall[];
  logprobs: OpenAITokenLogprob[];
  finish: FinishReason | null;
}

export async function aggregateCompletion(
  frames: AsyncIterable<GenerateResponse__Output>,
  identity: CompletionIdentity,
  options: { n: number; logprobs: boolean },
): Promise<OpenAIChatCompletion> {
  const choices: ChoiceSoFar[] = Array.from({ length: options.n }, () => ({
    content: '',
    toolCalls: [],
    logprobs: [],
    finish: null,
  }));
  let usage: Usage | null = null;
  for await (const frame of frames) {
    const choice = choices[frame.choice_index];
    if (!choice)
      throw new Error(`the chat service sent choice ${frame.choice_index} of ${options.n}`);
    if (frame.delta) {
      choice.content += frame.delta.content;
      for (const delta of frame.delta.tool_calls) addToolCallDelta(choice.toolCalls, delta);
      choice.logprobs.push(...frame.delta.logprobs.map(toOpenAILogprob));
    }
    if (frame.finish) {
      choice.finish = finishReasonOf(frame.finish.finish_reason);
      usage = frame.finish.usage ?? usage;
    }
  }
  return {
    ...identity,
    object: 'chat.completion',
    choices: choices.map((choice, index) => {
      if (!choice.finish) throw new Error(`the chat service did not finish choice ${index}`);
      return {
        index,
        message: messageOf(choice),
        logprobs: options.logprobs ? { content: choice.logprobs, refusal: null } : null,
        finish_reason: choice.finish,
      };
    }),
    usage: toOpenAIUsage(usage),
  };
}

/** A call's first piece opens it (at the next index); later pieces append to its arguments. */
function addToolCallDelta(calls: OpenAIToolCall[], delta: ToolCallDelta__Output): void {
  if (delta.id !== '') {
    if (delta.index !== calls.length) {
      throw new Error(`the chat service opened tool call ${delta.index} after ${calls.length}`);
    }
    calls.push({
      id: delta.id,
      type: 'function',
      function: { name: delta.name, arguments: delta.arguments },
    });
    return;
  }
  const call = calls[delta.index];
  if (!call)
    throw new Error(`the chat service continued tool call ${delta.index} before its start`);
  call.function.arguments += delta.arguments;
}

/** As OpenAI answers: content null when the answer is only calls, tool_calls only when made. */
function messageOf(choice: ChoiceSoFar): OpenAIChatCompletion['choices'][number]['message'] {
  if (choice.toolCalls.length === 0) {
    return { role: 'assistant', content: choice.content, refusal: null };
  }
  return {
    role: 'assistant',
    content: choice.content === '' ? null : choice.content,
    refusal: null,
    tool_calls: choice.toolCalls,
  };
}
