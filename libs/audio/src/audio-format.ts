// What the encoder and the decoder know of audio formats beyond the speech response formats
// (AUDIO_FORMATS and their content-types are @tessera/contracts', shared with the gateway): the
// rate every speech format is encoded at, and the upload formats a transcription may send.

/** OpenAI's output rate: every format is encoded at 24 kHz, mono (pcm is defined as that). */
export const SPEECH_OUTPUT_SAMPLE_RATE = 24000;

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
