// The checks of a Transcribe call that the gateway's schema cannot make alone, each failing with
// INVALID_ARGUMENT naming the OpenAI param before any audio is decoded: the config first, its
// values in range, and what the model can do (checkTranscriptionAsk). The gateway validates
// shapes once, at the edge; these hold for any other caller too.
import { status } from '@grpc/grpc-js';
import {
  TranscriptionRequestError,
  checkTranscriptionAsk,
  type TranscriptionJob,
  type TranscriptionTask,
} from '@tessera/asr';
import { GrpcStatusError, type TranscriptionConfig__Output } from '@tessera/contracts';
import type { TranscriptionModel } from './transcription-models';

/** The job without its audio, which is decoded only once everything else has passed. */
export type CheckedTranscription = Omit<TranscriptionJob, 'audio'>;

const GRANULARITIES = new Set(['word', 'segment']);

export function invalidTranscription(message: string, param: string | null): GrpcStatusError {
  return new GrpcStatusError(status.INVALID_ARGUMENT, message, { param, code: null });
}

export function checkTranscription(
  model: TranscriptionModel,
  config: TranscriptionConfig__Output,
): CheckedTranscription {
  const task: TranscriptionTask = config.task === 'translate' ? 'translate' : 'transcribe';
  if (config.task !== '' && config.task !== task) {
    throw invalidTranscription(`task must be 'transcribe' or 'translate'.`, null);
  }
  if (!(config.temperature >= 0 && config.temperature <= 1)) {
    throw invalidTranscription(
      `temperature must be between 0 and 1, got ${config.temperature}.`,
      'temperature',
    );
  }
  const unknown = config.timestamp_granularities.filter((value) => !GRANULARITIES.has(value));
  if (unknown.length > 0) {
    throw invalidTranscription(
      `timestamp_granularities may hold 'word' and 'segment', got '${unknown.join("', '")}'.`,
      'timestamp_granularities',
    );
  }
  const job: CheckedTranscription = {
    task,
    language: config.language === '' ? undefined : config.language,
    prompt: config.prompt === '' ? undefined : config.prompt,
    temperature: config.temperature,
    wordTimestamps: config.timestamp_granularities.includes('word'),
  };
  try {
    checkTranscriptionAsk(model.spec.id, model.whisper.info, job);
  } catch (error) {
    if (error instanceof TranscriptionRequestError) {
      throw invalidTranscription(error.message, error.param);
    }
    throw error;
  }
  return job;
}
