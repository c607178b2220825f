// A whole (non-streamed) chat completion from the Generate stream: each choice's deltas joined,
// its logprobs in order, its finish reason, and the usage the last frame carries.
import type { GenerateResponse__Output, Usage } from '@tessera/contracts';
import {
  finishReasonOf,
  toOpenAILogprob,
  toOpenAIUsage,
  type CompletionIdentity,
  type FinishReason,
  type OpenAIChatCompletion,
  type OpenAITokenLogprob,
} from './chat.response';

interface ChoiceSoFar {
  content: string;
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
        message: { role: 'assistant', content: choice.content, refusal: null },
        logprobs: options.logprobs ? { content: choice.logprobs, refusal: null } : null,
        finish_reason: choice.finish,
      };
    }),
    usage: toOpenAIUsage(usage),
  };
}
