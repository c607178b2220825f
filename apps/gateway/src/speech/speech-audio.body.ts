// stream_format "audio" (the default): the encoded audio as the body, each AudioChunk written as
// it arrives. A failure once the audio has started cannot become an error body any more (the
// client is reading a file); the response is aborted instead, so the body ends without its last
// chunk and every HTTP client reports it cut short rather than handing over a truncated file.
import type { StreamReplyBody } from '../http/stream-reply.writer';
import type { AudioChunk, SpeechUsageRecord } from './speech.usage';
import { AUDIO_CONTENT_TYPES, type AudioFormat } from '@tessera/contracts';

export function speechAudioBody(
  format: AudioFormat,
  usage: SpeechUsageRecord,
): StreamReplyBody<AudioChunk> {
  return {
    headers: (first) => ({
      // The service names the type of what it encoded on the first chunk; the table is the same.
      'content-type': first?.content_type || AUDIO_CONTENT_TYPES[format],
      'cache-control': 'no-cache',
      // Proxies such as nginx would otherwise hold the audio back until the end.
      'x-accel-buffering': 'no',
    }),
    write: (chunk) => {
      usage.observe(chunk);
      return chunk.data.length > 0 ? chunk.data : undefined;
    },
    end: () => undefined,
    fail: () => undefined,
  };
}
