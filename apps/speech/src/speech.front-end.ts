// The text side of synthesis, shared by every speech model of the service: the normaliser and
// the espeak-ng phonemiser (which runs in a thread of its own). A token so the handler's unit
// spec can stand in for espeak-ng.
import type { Phonemizer, SpeechNormalizer } from '@tessera/tts';

export interface SpeechFrontEnd {
  readonly phonemizer: Phonemizer;
  readonly normalize: SpeechNormalizer;
}

export const SPEECH_FRONT_END = Symbol('SPEECH_FRONT_END');
