// How the Synthesize handler encodes: @tessera/audio's streaming ffmpeg encoder (PCM at the
// voice's rate in, the format's bytes at 24 kHz out as they are produced, killed on the signal).
// A token, so the handler's unit spec can see what reaches the encoder without a child process.
import { encodeAudioStream } from '@tessera/audio';
import type { AudioFormat } from '@tessera/contracts';

export interface SpeechEncodeOptions {
  readonly format: AudioFormat;
  /** The voice's rate. */
  readonly inputSampleRate: number;
  readonly signal: AbortSignal;
}

export type SpeechEncode = (
  pcm: AsyncIterable<Int16Array>,
  options: SpeechEncodeOptions,
) => AsyncIterable<Uint8Array>;

export const SPEECH_ENCODE = Symbol('SPEECH_ENCODE');

export const ffmpegSpeechEncode: SpeechEncode = (pcm, options) =>
  encodeAudioStream(pcm, { ...options });
