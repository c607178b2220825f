// Phonemes to the ids a Piper voice takes, exactly as piper-tts's phoneme_ids.phonemes_to_ids:
// BOS then PAD, each known phoneme's ids then PAD, EOS. A phoneme the map lacks is skipped (piper
// logs it); an entry may carry several ids, all of them emitted.

export type PhonemeIdMap = Readonly<Record<string, readonly number[]>>;

const BOS = '^';
const PAD = '_';
const EOS = '$';

export interface PhonemeIds {
  readonly ids: number[];
  /** Phonemes the map does not have, in order (skipped, as piper skips them). */
  readonly missing: string[];
}

export function phonemesToIds(phonemes: readonly string[], idMap: PhonemeIdMap): PhonemeIds {
  const ids: number[] = [...idMap[BOS], ...idMap[PAD]];
  const missing: string[] = [];
  for (const phoneme of phonemes) {
    const mapped = Object.hasOwn(idMap, phoneme) ? idMap[phoneme] : undefined;
    if (!mapped) {
      missing.push(phoneme);
      continue;
    }
    ids.push(...mapped, ...idMap[PAD]);
  }
  ids.push(...idMap[EOS]);
  return { ids, missing };
}
