// stream_format "sse": the audio as the spec's CreateSpeechResponseStreamEvent events, one
// `speech.audio.delta` (base64) per AudioChunk as it arrives, then `speech.audio.done` with the
// usage, which ends the stream (no `data: [DONE]`: the done event is the spec's last event). A
// failure after the stream started becomes one `data: {"error": …}` event, as in chat.
import type { StreamReplyBody } from '../http/stream-reply.writer';
import { SseEncoder } from '../sse/sse.encoder';
import { SSE_HEADERS } from '../sse/sse.writer';
import type { AudioChunk, OpenAISpeechUsage, SpeechUsageRecord } from './speech.usage';

export interface SpeechAudioDeltaEvent {
  type: 'speech.audio.delta';
  audio: string;
}

export interface SpeechAudioDoneEvent {
  type: 'speech.audio.done';
  usage: OpenAISpeechUsage;
}

const encoder = new SseEncoder();

export function speechSseBody(usage: SpeechUsageRecord): StreamReplyBody<AudioChunk> {
  return {
    headers: () => SSE_HEADERS,
    write: (chunk) => {
      usage.observe(chunk);
      if (chunk.data.length === 0) return undefined;
      const delta: SpeechAudioDeltaEvent = {
        type: 'speech.audio.delta',
        audio: chunk.data.toString('base64'),
      };
      return encoder.event(delta);
    },
    end: () => {
      const reported = usage.usage();
      // The service reports usage on its last message; a stream without it is a broken contract.
      if (!reported) throw new Error('the speech service ended the stream without its usage');
      const done: SpeechAudioDoneEvent = { type: 'speech.audio.done', usage: reported };
      return encoder.event(done);
    },
    fail: (error) => encoder.event(error.toBody()),
  };
}
