// stream: true. The transcript as the spec's CreateTranscriptionResponseStreamEvent events: a
// `transcript.text.delta` per TranscriptDelta the service sends (one per decoded segment), then
// `transcript.text.done` with the whole text and the token usage (the spec's done event carries
// TranscriptTextUsageTokens), which ends the stream: OpenAI sends no `data: [DONE]` after it. A
// failure after the stream started becomes one `data: {"error": …}` event, as in chat.
import type { TranscribeEvent__Output } from '@tessera/contracts';
import type { StreamReplyBody } from '../http/stream-reply.writer';
import { SseEncoder } from '../sse/sse.encoder';
import { SSE_HEADERS } from '../sse/sse.writer';

export interface TranscriptTextDeltaEvent {
  type: 'transcript.text.delta';
  delta: string;
}

export interface TranscriptTextDoneEvent {
  type: 'transcript.text.done';
  text: string;
  usage?: { type: 'tokens'; input_tokens: number; output_tokens: number; total_tokens: number };
}

const encoder = new SseEncoder();

export function transcriptSseBody(): StreamReplyBody<TranscribeEvent__Output> {
  let done = false;
  return {
    headers: () => SSE_HEADERS,
    write: (event) => {
      if (event.delta) {
        if (event.delta.text === '') return undefined;
        const delta: TranscriptTextDeltaEvent = {
          type: 'transcript.text.delta',
          delta: event.delta.text,
        };
        return encoder.event(delta);
      }
      if (!event.done) return undefined;
      done = true;
      const { text, usage } = event.done;
      const last: TranscriptTextDoneEvent = { type: 'transcript.text.done', text };
      if (usage) {
        last.usage = {
          type: 'tokens',
          input_tokens: usage.prompt_tokens,
          output_tokens: usage.completion_tokens,
          total_tokens: usage.total_tokens,
        };
      }
      return encoder.event(last);
    },
    end: () => {
      // The service ends every transcription with `done`; a stream without it was cut short.
      if (!done)
        throw new Error('the transcription service ended the stream without its transcript');
      return undefined;
    },
    fail: (error) => encoder.event(error.toBody()),
  };
}
