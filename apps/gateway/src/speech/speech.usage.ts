// The usage of one synthesis, as the speech service reports it on its last AudioChunk (phoneme
// ids in, audio frames out) and as OpenAI's speech.audio.done event carries it.
import type { ResponseOf } from '../upstream/upstream.methods';

export type AudioChunk = ResponseOf<'speech', 'Synthesize'>;

export interface OpenAISpeechUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** Watches a Synthesize stream go by and keeps the usage its last message carries. */
export class SpeechUsageRecord {
  private reported: AudioChunk['usage'] = null;

  observe(chunk: AudioChunk): void {
    if (chunk.usage) this.reported = chunk.usage;
  }

  /** The usage, once the service has reported it. */
  usage(): OpenAISpeechUsage | undefined {
    if (!this.reported) return undefined;
    const { input_tokens, output_tokens } = this.reported;
    return { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens };
  }
}
