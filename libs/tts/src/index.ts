// @tessera/tts — the text-to-speech engine: text normalisation and sentence splitting, the
// espeak-ng phonemiser (WebAssembly), Piper voices (VITS exported to ONNX) run on
// @tessera/runtime's worker pool, streamed sentence by sentence.
export type { Phonemizer } from './phonemize/phonemizer.contract';
export { normalizeForSpeech } from './text';
