// How much one upload to /v1/audio/transcriptions or /v1/audio/translations may hold. OpenAI's
// limit is 25 MB, counted in MiB (its 413 reads "Maximum content size limit (26214400)").
import { OpenAIError } from '../errors/openai-error';

/** The audio file's own size limit. */
export const MAX_AUDIO_FILE_BYTES = 25 * 1024 * 1024;

/**
 * The form around the file: at most this many parts, each field value at most this long (a
 * prompt is a few hundred tokens), each part's headers at most this long.
 */
export const AUDIO_FORM_LIMITS = {
  fieldSize: 64 * 1024,
  fields: 16,
  parts: 18,
  headerSize: 16 * 1024,
  headerPairs: 32,
} as const;

/**
 * The largest request body that can hold a file within the limit: the file, every field at its
 * longest, and the parts' headers and boundaries. A Content-Length above it is refused before
 * any byte of the body is read.
 */
export const MAX_AUDIO_FORM_BYTES =
  MAX_AUDIO_FILE_BYTES +
  AUDIO_FORM_LIMITS.parts * (AUDIO_FORM_LIMITS.fieldSize + AUDIO_FORM_LIMITS.headerSize + 256);

export function audioFileTooLarge(): OpenAIError {
  return new OpenAIError(
    413,
    `Maximum content size limit (${MAX_AUDIO_FILE_BYTES}) exceeded: the audio file must be ` +
      'at most 25 MB.',
    'invalid_request_error',
    'file',
    'request_too_large',
  );
}
