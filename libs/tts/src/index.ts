// @tessera/tts — the text-to-speech engine: text normalisation and sentence splitting, the
// espeak-ng phonemiser (WebAssembly), Piper voices (VITS exported to ONNX) run on
// @tessera/runtime's worker pool, streamed sentence by sentence.
export type { Phonemizer } from './phonemize/phonemizer.contract';
export { EspeakPhonemizer, defaultEspeakDirectory } from './phonemize/espeak.phonemizer';
export { EspeakVoiceError } from './phonemize/espeak.module';
export { PiperVoice, type PiperVoiceOptions, type RunVoicing } from './piper-voice';
export {
  PiperVoiceConfigSchema,
  parsePiperVoiceConfig,
  readPiperVoiceConfig,
  speakerIdOf,
  type PiperVoiceConfig,
} from './voice/piper-voice.config';
export { phonemesToIds, type PhonemeIdMap, type PhonemeIds } from './voice/phoneme.ids';
export { phonemeRuns } from './voice/phoneme.runs';
export { piperSentencePcm } from './voice/sentence.audio';
export { runAudio, type RunAudio, type RunSynthesizer } from './voice/run-audio.stream';
export {
  textRuns,
  type SpeechNormalizer,
  type TextRuns,
  type TextRunsOptions,
} from './voice/text.runs';
export { normalizeForSpeech } from './text';
