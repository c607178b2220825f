// @tessera/audio — audio in and out of Tessera: ffmpeg discovery (one place), the speech
// response formats, and streaming encoders from PCM to mp3/opus/aac/flac/wav/pcm, run in an
// ffmpeg child process so no encoding happens on the event loop. Transcription will add decoding.
export {
  AUDIO_CONTENT_TYPES,
  AUDIO_FORMATS,
  SPEECH_OUTPUT_SAMPLE_RATE,
  isAudioFormat,
  type AudioFormat,
} from './audio-format';
