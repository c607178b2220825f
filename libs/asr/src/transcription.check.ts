// What a job may ask of a model, checked against what the model can do before any audio is
// decoded (a 25 MB upload is not worth decoding for a request that must fail). The service
// calls it first; the engine relies on it and does not check again.
import type { TranscriptionTask, WhisperModelInfo } from './transcription.contract';

/** A request the model cannot serve; `param` names the OpenAI parameter at fault. */
export class TranscriptionRequestError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
    this.name = 'TranscriptionRequestError';
  }
}

export interface TranscriptionAsk {
  readonly task: TranscriptionTask;
  /** ISO-639-1, or undefined to detect. */
  readonly language?: string;
  readonly wordTimestamps: boolean;
}

export function checkTranscriptionAsk(
  modelId: string,
  info: WhisperModelInfo,
  ask: TranscriptionAsk,
): void {
  // An English-only model translates English only: its English transcript is the translation
  // (its prompt has no task token, so the job runs as a transcription). Other languages are
  // refused by the language check below; undetected ones come out as the model hears them.
  if (ask.language !== undefined && !info.languages.includes(ask.language)) {
    throw new TranscriptionRequestError(
      info.multilingual
        ? `The language '${ask.language}' is not one the model '${modelId}' knows. ` +
            `Use an ISO-639-1 code among: ${info.languages.join(', ')}.`
        : `The model '${modelId}' is English-only: language must be 'en' or left out` +
            (ask.task === 'translate' ? ' (it translates English audio only).' : '.'),
      'language',
    );
  }
  if (ask.wordTimestamps && !info.wordTimestamps) {
    throw new TranscriptionRequestError(
      `The model '${modelId}' cannot give word timestamps: its decoder export has no ` +
        'cross-attention outputs (or its generation_config.json no alignment_heads). ' +
        'Ask for segment timestamps only, or use a model exported with cross-attentions.',
      'timestamp_granularities',
    );
  }
}
