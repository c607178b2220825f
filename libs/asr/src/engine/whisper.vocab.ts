// Whisper's special tokens, read from the model directory's tokenizer.json (added tokens) and
// generation_config.json, never hard-coded: English-only and multilingual checkpoints number
// them differently (tiny.en's <|startoftranscript|> is 50257, a multilingual model's 50258), and
// older tokenizers call <|nospeech|> <|nocaptions|>.

export interface WhisperGenerationConfig {
  readonly is_multilingual?: boolean;
  readonly lang_to_id?: Readonly<Record<string, number>>;
  readonly task_to_id?: Readonly<Record<string, number>>;
  readonly suppress_tokens?: readonly number[];
  readonly begin_suppress_tokens?: readonly number[];
  readonly alignment_heads?: readonly (readonly [number, number])[];
  readonly no_timestamps_token_id?: number;
  readonly max_initial_timestamp_index?: number;
}

export interface WhisperVocab {
  readonly vocabSize: number;
  readonly eot: number;
  readonly sot: number;
  readonly sotPrev: number;
  readonly sotLm?: number;
  readonly transcribe: number;
  readonly translate: number;
  readonly noSpeech?: number;
  readonly noTimestamps: number;
  /** First timestamp token (<|0.00|>); every id from here to vocabSize is a timestamp. */
  readonly timestampBegin: number;
  readonly multilingual: boolean;
  /** ISO-639-1 code → token id; English-only models: only 'en', whose token is not emitted. */
  readonly languages: ReadonlyMap<string, number>;
  /** suppress_tokens of generation_config plus the special tokens openai-whisper suppresses. */
  readonly suppress: readonly number[];
  /** Suppressed at the first sampled position only (the blank " " and <|endoftext|>). */
  readonly beginSuppress: readonly number[];
  /** [layer, head] pairs whose cross-attention follows the audio (for word timestamps). */
  readonly alignmentHeads: readonly (readonly [number, number])[];
}

interface AddedToken {
  readonly id: number;
  readonly content: string;
}

export function whisperVocab(
  addedTokens: readonly AddedToken[],
  generation: WhisperGenerationConfig,
  vocabSize: number,
): WhisperVocab {
  const byContent = new Map(addedTokens.map((token) => [token.content, token.id]));
  const required = (content: string): number => {
    const id = byContent.get(content);
    if (id === undefined) throw new Error(`tokenizer.json has no ${content} token`);
    return id;
  };
  const eot = required('<|endoftext|>');
  const sot = required('<|startoftranscript|>');
  const translate = required('<|translate|>');
  const transcribe = required('<|transcribe|>');
  const sotPrev = required('<|startofprev|>');
  const sotLm = byContent.get('<|startoflm|>');
  const noSpeech = byContent.get('<|nospeech|>') ?? byContent.get('<|nocaptions|>');
  const noTimestamps = generation.no_timestamps_token_id ?? required('<|notimestamps|>');
  const multilingual = generation.is_multilingual ?? vocabSize >= 51865;
  const languages = new Map<string, number>();
  if (multilingual) {
    const table =
      generation.lang_to_id ??
      Object.fromEntries(
        addedTokens
          .filter((token) => token.id > sot && token.id < translate)
          .map((token) => [token.content, token.id]),
      );
    for (const [content, id] of Object.entries(table)) {
      const code = /^<\|([a-z]{2,3}|haw|yue)\|>$/.exec(content)?.[1];
      if (code) languages.set(code, id);
    }
  } else {
    languages.set('en', byContent.get('<|en|>') ?? sot + 1);
  }
  const specials = [transcribe, translate, sot, sotPrev, sotLm, noSpeech].filter(
    (id): id is number => id !== undefined,
  );
  return {
    vocabSize,
    eot,
    sot,
    sotPrev,
    sotLm,
    transcribe,
    translate,
    noSpeech,
    noTimestamps,
    timestampBegin: noTimestamps + 1,
    multilingual,
    languages,
    suppress: [...new Set([...(generation.suppress_tokens ?? []), ...specials])],
    beginSuppress: generation.begin_suppress_tokens ?? [220, eot],
    alignmentHeads: generation.alignment_heads ?? [],
  };
}

/** The sot sequence: <|startoftranscript|>, then on multilingual models language and task. */
export function sotSequence(
  vocab: WhisperVocab,
  language: string | undefined,
  task: 'transcribe' | 'translate',
): number[] {
  if (!vocab.multilingual) return [vocab.sot];
  const languageId = language === undefined ? undefined : vocab.languages.get(language);
  if (languageId === undefined) throw new Error(`unknown language ${language}`);
  return [vocab.sot, languageId, task === 'translate' ? vocab.translate : vocab.transcribe];
}
