// What the speech engine needs from a phonemiser: Piper's own contract. Text in, the phonemes of
// each sentence out, exactly as piper-tts's EspeakPhonemizer.phonemize returns them: each
// sentence a list of phonemes (Unicode code points after NFD, so stress marks and diacritics are
// phonemes of their own), clause punctuation kept (". , ? ! : ;"), a space after ", : ;".
import type { WorkBounds } from '@tessera/runtime';

export interface Phonemizer {
  /**
   * Asynchronous because espeak-ng runs off the event loop (a worker thread): a 4096-character
   * input takes longer than the event loop may be held.
   *
   * @param text  the text to speak (already normalised); any length the caller allows.
   * @param voice the espeak-ng voice of the Piper voice file (`espeak.voice`, e.g. "en-us").
   * @param bounds cancellation and deadline of the request it serves.
   * @returns one array per sentence; never an empty sentence.
   */
  phonemize(text: string, voice: string, bounds?: WorkBounds): Promise<string[][]>;
}
