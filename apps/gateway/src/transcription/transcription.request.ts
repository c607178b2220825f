// The fields of a POST /v1/audio/transcriptions or /v1/audio/translations form (the spec's
// CreateTranscriptionRequest and CreateTranslationRequest, less `file`), validated once here.
// Multipart values are strings: numbers and booleans are read from them the way the openai SDKs
// write them ("0.2", "true"); `timestamp_granularities[]` is the repeated name the SDKs send.
// Fields the spec has but Whisper cannot honour (include, chunking_strategy, known speakers,
// languages, keywords) are refused by name rather than ignored. What depends on the model (a
// language it does not know, words from a model without cross-attentions, translating on an
// English-only model) is the service's to check.
import { z } from 'zod';
import { OpenAIError } from '../errors/openai-error';
import { parseValue } from '../validation/parse-body';
import { whisperLanguageCode } from './transcription.languages';

export const TRANSCRIPTION_RESPONSE_FORMATS = [
  'json',
  'text',
  'srt',
  'verbose_json',
  'vtt',
] as const;
export type TranscriptionResponseFormat = (typeof TRANSCRIPTION_RESPONSE_FORMATS)[number];

/** The formats whose answer is the transcript's text alone, which the SSE events carry. */
const STREAMABLE_FORMATS: readonly TranscriptionResponseFormat[] = ['json', 'text'];

export const TIMESTAMP_GRANULARITIES = ['word', 'segment'] as const;
export type TimestampGranularity = (typeof TIMESTAMP_GRANULARITIES)[number];

export type TranscriptionTask = 'transcribe' | 'translate';

/** A number as a form writes it; anything else is left for the schema to call not a number. */
const FormNumber = z.preprocess(
  (value) =>
    typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : value,
  z.number(),
);

const FormBoolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean(),
);

const Language = z.string().transform((given, context) => {
  const code = whisperLanguageCode(given);
  if (code) return code;
  context.addIssue({
    code: 'custom',
    message: `must be an ISO-639-1 code such as 'en' (a language Whisper knows), but got '${given.slice(0, 40)}'`,
    input: given,
  });
  return z.NEVER;
});

const common = {
  model: z.string().min(1),
  prompt: z.string().optional(),
  response_format: z.enum(TRANSCRIPTION_RESPONSE_FORMATS).default('json'),
  temperature: FormNumber.pipe(z.number().min(0).max(1)).default(0),
};

const TranscriptionFields = z.strictObject({
  ...common,
  language: Language.optional(),
  timestamp_granularities: z.array(z.enum(TIMESTAMP_GRANULARITIES)).optional(),
  stream: FormBoolean.default(false),
});

const TranslationFields = z.strictObject(common);

const SCHEMAS = { transcribe: TranscriptionFields, translate: TranslationFields };

export interface TranscriptionRequest {
  task: TranscriptionTask;
  /** As sent: an id or an alias of the models file. */
  model: string;
  /** ISO-639-1; undefined: the service detects it. */
  language: string | undefined;
  prompt: string;
  responseFormat: TranscriptionResponseFormat;
  temperature: number;
  /** What verbose_json carries (segment by default); empty for the other formats. */
  granularities: TimestampGranularity[];
  stream: boolean;
}

/** The form's text fields by name, each with every value given under that name. */
export type FormFields = ReadonlyMap<string, readonly string[]>;

const DEFAULT_GRANULARITIES: readonly TimestampGranularity[] = ['segment'];

const GRANULARITY_NAMES = ['timestamp_granularities[]', 'timestamp_granularities'];

/**
 * The fields seen before the file, checked on their own (each value, unknown names), so that a
 * bad request is refused before its audio is read. Returns the model when one was given.
 */
export function checkFieldsBeforeFile(
  fields: FormFields,
  task: TranscriptionTask,
): string | undefined {
  const parsed = parseValue(SCHEMAS[task].partial(), toObject(fields), []);
  return parsed.model;
}

export function parseTranscriptionFields(
  fields: FormFields,
  task: TranscriptionTask,
): TranscriptionRequest {
  const parsed = parseValue(SCHEMAS[task], toObject(fields), []) as z.infer<
    typeof TranscriptionFields
  >;
  const responseFormat = parsed.response_format;
  if (parsed.timestamp_granularities && responseFormat !== 'verbose_json') {
    throw OpenAIError.badRequest(
      "Invalid 'timestamp_granularities': timestamp granularities are only supported with " +
        `response_format 'verbose_json', but got '${responseFormat}'.`,
      'timestamp_granularities',
    );
  }
  const stream = parsed.stream ?? false;
  if (stream && !STREAMABLE_FORMATS.includes(responseFormat)) {
    throw OpenAIError.badRequest(
      `Invalid 'stream': streaming is supported with response_format 'json' or 'text', but ` +
        `got '${responseFormat}'.`,
      'stream',
    );
  }
  return {
    task,
    model: parsed.model,
    language: parsed.language,
    prompt: parsed.prompt ?? '',
    responseFormat,
    temperature: parsed.temperature,
    granularities:
      responseFormat === 'verbose_json'
        ? [...new Set(parsed.timestamp_granularities ?? DEFAULT_GRANULARITIES)]
        : [],
    stream,
  };
}

/** The fields as the schema reads them: one value per name, the granularities as a list. */
function toObject(fields: FormFields): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [name, values] of fields) {
    if (GRANULARITY_NAMES.includes(name)) {
      const given = (object.timestamp_granularities as string[] | undefined) ?? [];
      object.timestamp_granularities = [...given, ...values];
    } else if (name === 'file') {
      throw OpenAIError.badRequest(
        "Invalid 'file': it must be an uploaded file (a part with a filename), not a text field.",
        'file',
      );
    } else if (values.length > 1) {
      throw OpenAIError.badRequest(`Invalid '${name}': it is given more than once.`, name);
    } else {
      object[name] = values[0];
    }
  }
  return object;
}
