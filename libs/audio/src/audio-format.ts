// The six response formats of POST /v1/audio/speech and what a client is told about each: the
// one table the gateway (validation, content-type) and the encoder (ffmpeg arguments) share.

export const AUDIO_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** OpenAI's output rate: every format is encoded at 24 kHz, mono (pcm is defined as that). */
export const SPEECH_OUTPUT_SAMPLE_RATE = 24000;

/** The content-type of each format's body, as OpenAI sends it. */
export const AUDIO_CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

export function isAudioFormat(value: string): value is AudioFormat {
  return (AUDIO_FORMATS as readonly string[]).includes(value);
}

/**
 * The upload formats of POST /v1/audio/transcriptions and /translations, as OpenAI lists them
 * (mpeg and mpga are mp3 by other names; m4a is mp4 audio), plus ogg and flac. The decoder's
 * error message names them; what ffmpeg may open is bounded by AUDIO_DECODER_DEMUXERS.
 */
export const TRANSCRIPTION_INPUT_FORMATS = [
  'mp3',
  'mp4',
  'mpeg',
  'mpga',
  'm4a',
  'wav',
  'webm',
  'ogg',
  'flac',
] as const;
