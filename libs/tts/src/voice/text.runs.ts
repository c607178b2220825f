// A text to the voice runs a Piper voice speaks, as piper-tts's synthesize prepares them:
// normalised for speech, phonemised by espeak-ng (one phoneme list per sentence, in the
// phonemiser's thread), each sentence's phonemes cut to the run bound and turned into ids.
import type { Phonemizer } from '../phonemize/phonemizer.contract';
import { phonemesToIds } from './phoneme.ids';
import { phonemeRuns } from './phoneme.runs';
import type { PiperVoiceConfig } from './piper-voice.config';

/** Numbers, dates, currency and abbreviations written out for the voice's language. */
export type SpeechNormalizer = (text: string, language: string) => string;

export interface TextRuns {
  /** The phoneme ids of each voice run, in order (BOS, PAD and EOS included). */
  readonly runs: number[][];
  /** Phonemes the voice's id map lacks, skipped as piper skips them (distinct, in order). */
  readonly missing: string[];
}

export interface TextRunsOptions {
  readonly phonemizer: Phonemizer;
  readonly normalize: SpeechNormalizer;
  readonly maxPhonemesPerRun: number;
}

export async function textRuns(
  text: string,
  config: Pick<PiperVoiceConfig, 'espeak' | 'phoneme_id_map'>,
  options: TextRunsOptions,
): Promise<TextRuns> {
  const voice = config.espeak.voice;
  // espeak-ng's voice names its language ("en-us", "de"): the normaliser takes the same tag.
  const sentences = await options.phonemizer.phonemize(options.normalize(text, voice), voice);
  const runs: number[][] = [];
  const missing = new Set<string>();
  for (const sentence of sentences) {
    for (const run of phonemeRuns(sentence, options.maxPhonemesPerRun)) {
      const { ids, missing: unknown } = phonemesToIds(run, config.phoneme_id_map);
      for (const phoneme of unknown) missing.add(phoneme);
      runs.push(ids);
    }
  }
  return { runs, missing: [...missing] };
}
