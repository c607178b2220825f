// What the Synthesize handler needs of an audio encoder: PCM in at the voice's rate, the
// response format's bytes out as they are produced (resampled to 24 kHz mono), killed when the
// signal aborts. Implemented over @tessera/audio's streaming ffmpeg encoder (speech-audio.encoder.ts);
// a token so the handler's unit spec can count what reaches it without a child process.
import type { AudioFormat } from '@tessera/audio';

export interface SpeechEncoding {
  /** One run's int16 samples; resolves when the encoder can take more (backpressure). */
  write(pcm: Int16Array): Promise<void>;
  /** No more samples: the encoder flushes and `output` ends. */
  end(): Promise<void>;
  /** The encoded bytes, in order; throws if the encoder fails or is killed. */
  readonly output: AsyncIterable<Uint8Array>;
}

export interface SpeechEncoderFactory {
  open(format: AudioFormat, inputSampleRate: number, signal: AbortSignal): SpeechEncoding;
}

export const SPEECH_ENCODER = Symbol('SPEECH_ENCODER');
