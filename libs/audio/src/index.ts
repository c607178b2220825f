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
export {
  FfmpegAudioEncoder,
  createAudioEncoder,
  encodeAudioStream,
  type AudioEncoderOptions,
  type PcmChunk,
} from './audio.encoder';
export { AudioEncoderAbortedError, FfmpegNotFoundError, FfmpegProcessError } from './ffmpeg.errors';
export {
  describeBinary,
  findFfmpeg,
  findFfprobe,
  locateFfmpeg,
  locateFfprobe,
  type BinarySource,
  type FindBinaryOptions,
  type LocatedBinary,
} from './ffmpeg.locate';
export { probeAudio, type AudioProbe } from './ffprobe.probe';
export { float32ToInt16, int16ToLittleEndianBytes } from './pcm.convert';
