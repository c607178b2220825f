// POST /v1/audio/speech request: the OpenAI shape (CreateSpeechRequest), validated once here.
// What depends on the model (whether the voice exists, whether it can follow `instructions`) is
// the speech service's to check; its INVALID_ARGUMENT comes back as the same 400 body.
import {
  MAX_SPEECH_INPUT_CHARS,
  MAX_SPEECH_SPEED,
  MIN_SPEECH_SPEED,
  exceedsSpeechInputChars,
  AUDIO_FORMATS,
  type AudioFormat,
} from '@tessera/contracts';
import { z } from 'zod';
import { parseBody, parseValue } from '../validation/parse-body';

export const SPEECH_STREAM_FORMATS = ['audio', 'sse'] as const;
export type SpeechStreamFormat = (typeof SPEECH_STREAM_FORMATS)[number];

const VOICE_FORMS = "must be a voice name or an object with a voice 'id'";

/**
 * A string of at most 4096 characters as OpenAI counts them: code points, so an emoji is one
 * character (JavaScript's length counts it as two), as the speech service counts them too.
 */
const SpeechText = z.string().refine((text) => !exceedsSpeechInputChars(text), {
  error: `must be at most ${MAX_SPEECH_INPUT_CHARS} characters`,
});

const VoiceName = z.string().min(1);
// The spec's custom-voice reference (VoiceIdsOrCustomVoice): `{"id": "voice_1234"}`, nothing else.
const VoiceReference = z.strictObject({ id: VoiceName });

const SpeechRequestSchema = z.strictObject({
  // Required and not nullable, as the spec has them (no default model, unlike moderation).
  model: z.string().min(1),
  input: SpeechText.min(1),
  // Its form is checked here and its content by parseVoice, per form, so that the 400 says what
  // is wrong with the name or the object rather than that neither form matched.
  voice: z.custom<string | object>((voice) => typeof voice === 'string' || isPlainObject(voice), {
    error: VOICE_FORMS,
  }),
  response_format: z.enum(AUDIO_FORMATS).default('mp3'),
  speed: z.number().min(MIN_SPEECH_SPEED).max(MAX_SPEECH_SPEED).default(1),
  stream_format: z.enum(SPEECH_STREAM_FORMATS).default('audio'),
  instructions: SpeechText.optional(),
});

export interface SpeechRequest {
  /** The model as sent (an id or an alias of the models file). */
  model: string;
  input: string;
  /** The voice name, from either form. */
  voice: string;
  responseFormat: AudioFormat;
  speed: number;
  streamFormat: SpeechStreamFormat;
  /** Empty when none was given (the proto's "none"). */
  instructions: string;
}

export function parseSpeechRequest(body: unknown): SpeechRequest {
  const parsed = parseBody(SpeechRequestSchema, body);
  return {
    model: parsed.model,
    input: parsed.input,
    voice: parseVoice(parsed.voice),
    responseFormat: parsed.response_format,
    speed: parsed.speed,
    streamFormat: parsed.stream_format,
    instructions: parsed.instructions ?? '',
  };
}

function parseVoice(voice: string | object): string {
  if (typeof voice === 'string') return parseValue(VoiceName, voice, ['voice']);
  return parseValue(VoiceReference, voice, ['voice']).id;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
