// @tessera/audio — audio in and out of Tessera: ffmpeg discovery (one place), the speech
// output rate, streaming encoders from PCM to mp3/opus/aac/flac/wav/pcm, and the decoder of
// transcription uploads (any supported format → mono float32), each run in an ffmpeg child
// process so no encoding or decoding happens on the event loop.
export { SPEECH_OUTPUT_SAMPLE_RATE, TRANSCRIPTION_INPUT_FORMATS } from './audio-format';
export { AUDIO_DECODER_DEMUXERS } from './audio-decoder.args';
export {
  DEFAULT_DECODE_MAX_SECONDS,
  DEFAULT_DECODE_TIMEOUT_MS,
  decodeAudio,
  type DecodeAudioOptions,
} from './audio.decoder';
export {
  FfmpegAudioEncoder,
  encodeAudioStream,
  type AudioEncoderOptions,
  type PcmChunk,
} from './audio.encoder';
export {
  AudioDecodeError,
  AudioEncoderAbortedError,
  FfmpegNotFoundError,
  FfmpegProcessError,
  type AudioDecodeFailure,
} from './ffmpeg.errors';
export {
  findFfmpeg,
  findFfprobe,
  locateFfmpeg,
  locateFfprobe,
  type BinarySource,
  type FindBinaryOptions,
  type LocatedBinary,
} from './ffmpeg.locate';
export { probeAudio, type AudioProbe } from './ffprobe.probe';
export { SpawnHelper, spawnHelper, type HelperChild, type HelperExit } from './spawn.helper';
export { float32ToInt16, int16ToLittleEndianBytes } from './pcm.convert';
