// The text side of synthesis, shared by every speech model of the service: the normaliser
// (numbers, dates, currency, abbreviations) and the espeak-ng phonemiser, which runs in a worker
// thread of its own. A token, so the handler's unit spec can stand in for espeak-ng.
import {
  EspeakPhonemizer,
  normalizeForSpeech,
  type Phonemizer,
  type SpeechNormalizer,
} from '@tessera/tts';

export interface SpeechFrontEnd {
  readonly phonemizer: Phonemizer;
  readonly normalize: SpeechNormalizer;
  close(): Promise<void>;
}

export const SPEECH_FRONT_END = Symbol('SPEECH_FRONT_END');

export async function espeakFrontEnd(): Promise<SpeechFrontEnd> {
  const phonemizer = await EspeakPhonemizer.start();
  return { phonemizer, normalize: normalizeForSpeech, close: () => phonemizer.close() };
}
