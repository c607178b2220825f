// A chat completion read as the tokens it decoded (each token's text and bytes, and its
// logprob), whole or streamed through the official SDK, for comparing two providers token by
// token; a streamed one can be awaited at its k-th token, so that others join it mid-decode.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureModelDir } from '@tessera/testing';
import type OpenAI from 'openai';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type TokenLogprob = OpenAI.Chat.Completions.ChatCompletionTokenLogprob;

export interface Decoded {
  /** Each token as `<text> <bytes>`: equal strings are equal tokens. */
  readonly tokens: string[];
  readonly logprobs: number[];
  readonly finishReason: string | null;
  readonly content: string;
}

/** The fixture chat model's conversations (its reference.json), prompts of different lengths. */
export function fixtureConversations(model: string): Message[][] {
  const file = path.join(fixtureModelDir(model), 'reference.json');
  const reference = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    cases: { messages: Message[] }[];
  };
  return reference.cases.map(({ messages }) => messages);
}

/**
 * Greedy, with the end-of-sequence token barred (the API has no `ignore_eos`; a -100 bias is
 * OpenAI's "ban"), so a request decodes exactly `max_tokens` steps.
 */
export function greedyParams(model: string, endOfSequence: number) {
  return {
    model,
    temperature: 0,
    logprobs: true,
    logit_bias: { [String(endOfSequence)]: -100 },
  };
}

/** The fixture's end-of-sequence token id, as its generation_config.json names it. */
export function endOfSequenceOf(model: string): number {
  const file = path.join(fixtureModelDir(model), 'generation_config.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { eos_token_id: number }).eos_token_id;
}

const tokenOf = (entry: TokenLogprob) => `${JSON.stringify(entry.token)} ${entry.bytes?.join(',')}`;

export function decodedOf(completion: OpenAI.Chat.Completions.ChatCompletion): Decoded {
  const choice = completion.choices[0];
  const entries = choice.logprobs?.content ?? [];
  return {
    tokens: entries.map(tokenOf),
    logprobs: entries.map((entry) => entry.logprob),
    finishReason: choice.finish_reason,
    content: choice.message.content ?? '',
  };
}

/** A streamed completion being read: its tokens so far, and whether it has ended. */
export class StreamedDecode {
  readonly tokens: string[] = [];
  readonly logprobs: number[] = [];
  private content = '';
  private finishReason: string | null = null;
  private ended = false;
  private waiters: { count: number; resolve: () => void }[] = [];
  /** Settles when the stream has ended. */
  readonly done: Promise<Decoded>;

  constructor(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
    this.done = this.read(stream);
    // A waiter whose count the stream never reaches is let go when it ends, however it ends.
    void this.done.catch(() => undefined).finally(() => this.release(Infinity));
  }

  get finished(): boolean {
    return this.ended;
  }

  /** Resolves once `count` tokens have arrived (or the stream has ended short of them). */
  tokensReached(count: number): Promise<void> {
    if (this.tokens.length >= count || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  private async read(
    stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>,
  ): Promise<Decoded> {
    try {
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (!choice) continue;
        this.content += choice.delta.content ?? '';
        for (const entry of choice.logprobs?.content ?? []) {
          this.tokens.push(tokenOf(entry));
          this.logprobs.push(entry.logprob);
        }
        if (choice.finish_reason) this.finishReason = choice.finish_reason;
        this.release(this.tokens.length);
      }
    } finally {
      this.ended = true;
    }
    return {
      tokens: this.tokens,
      logprobs: this.logprobs,
      finishReason: this.finishReason,
      content: this.content,
    };
  }

  private release(count: number): void {
    const ready = this.waiters.filter((waiter) => waiter.count <= count);
    this.waiters = this.waiters.filter((waiter) => waiter.count > count);
    for (const waiter of ready) waiter.resolve();
  }
}

export type { Message };
