// Side (d): Tessera over HTTP, as a client sees it — POST /v1/chat/completions streamed (SSE),
// greedy, `max_tokens` = the fixed output length and every end-of-sequence id biased by −100 so
// no request ends early (under a JSON Schema the grammar allows end-of-sequence only once the
// value is complete, which the bench's schema puts past max_tokens). Which server-sent events
// carry generated text is kept per request, so time to first token and inter-token latency are
// read from those events alone (not the role chunk, the finish chunk, the usage chunk or [DONE]).
import { TracedHttpClient } from '../lib/traced-http.client';
import type { RequestRecorder } from '../lib/request.trace';
import type { BenchPrompt } from './chat.prompts';

export interface ChatReply {
  readonly text: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Positions (among the request's server-sent events) of the events that carried text. */
  readonly tokenEvents: number[];
}

interface ChunkShape {
  choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  error?: { message?: string };
}

export class TesseraChatClient {
  private readonly http: TracedHttpClient;

  constructor(
    baseURL: string,
    apiKey: string,
    private readonly model: string,
    private readonly eosTokenIds: readonly number[],
    maxSockets: number,
    /** Fields added to every request (`--json-schema`: its response_format). */
    private readonly extraBody: Record<string, unknown> = {},
  ) {
    this.http = new TracedHttpClient(baseURL, { authorization: `Bearer ${apiKey}` }, maxSockets);
  }

  async complete(
    prompt: BenchPrompt,
    outputTokens: number,
    recorder: RequestRecorder,
  ): Promise<ChatReply> {
    const reply = await this.http.post(
      'chat/completions',
      {
        model: this.model,
        messages: prompt.messages,
        max_tokens: outputTokens,
        temperature: 0,
        logit_bias: Object.fromEntries(this.eosTokenIds.map((id) => [String(id), -100])),
        stream: true,
        stream_options: { include_usage: true },
        ...this.extraBody,
      },
      recorder,
    );
    if (reply.status !== 200) {
      throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 500)}`);
    }
    let text = '';
    let usage: ChunkShape['usage'];
    const tokenEvents: number[] = [];
    reply.events.forEach((data, position) => {
      if (data === '[DONE]') return;
      const chunk = JSON.parse(data) as ChunkShape;
      if (chunk.error) throw new Error(`error event: ${chunk.error.message}`);
      const content = chunk.choices?.[0]?.delta?.content;
      if (content) {
        text += content;
        tokenEvents.push(position);
      }
      if (chunk.usage) usage = chunk.usage;
    });
    if (!usage) throw new Error('the stream ended without a usage chunk');
    return {
      text,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      tokenEvents,
    };
  }

  close(): void {
    this.http.close();
  }
}
