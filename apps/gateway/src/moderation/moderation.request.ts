// POST /v1/moderations request: the OpenAI shape (CreateModerationRequest), validated once here.
// `input` has three forms: a string (one input), an array of strings (one input each, one result
// each, in order) and the multimodal array of text and image parts (one input, one result).
// The body is read in two steps: its fields, then — once the model, and so its `max_inputs`, is
// known — the input, counted before any item is read.
import { z } from 'zod';
import { arrayWithin } from '../validation/bounded-array.schema';
import { parseBody, parseValue } from '../validation/parse-body';
import { OpenAIError } from '../errors/openai-error';

/** What OpenAI's API uses when `model` is left out; an alias in the models file. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

const FORMS = 'must be a string, an array of strings, or an array of text and image_url parts';

const ModerationRequestSchema = z.strictObject({
  // Optional, not nullable: the spec says `nullable: false` and defaults it.
  model: z.string().min(1).optional(),
  // Its form is checked here and its content by parseInput, per form, so that the 400 names the
  // item that is wrong rather than saying that no form matched.
  input: z.custom<string | unknown[]>(
    (input) => typeof input === 'string' || Array.isArray(input),
    { error: FORMS },
  ),
});

const Text = z.string().min(1);
const Part = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('text'), text: Text }),
    z.strictObject({
      type: z.literal('image_url'),
      image_url: z.strictObject({ url: z.string().min(1) }),
    }),
  ],
  { error: "must have a 'type' of 'text' or 'image_url'" },
);
// Their length is checked first, against the model's max_inputs (moderationInputs).
const Texts = z.array(Text);
const Parts = z.array(Part);

/** One part of one input: text, or an image named by URL (http(s) or data:). */
export type ModerationInputPart = { text: string } | { imageUrl: string };

export interface ModerationRequest {
  /** As the client sent it (an id or an alias), or OpenAI's default. */
  model: string;
  /** Its form checked, its items not yet (moderationInputs). */
  input: string | unknown[];
}

/** One entry per result, each the parts of that input. */
export type ModerationInputs = ModerationInputPart[][];

export function parseModerationRequest(body: unknown): ModerationRequest {
  const parsed = parseBody(ModerationRequestSchema, body);
  return { model: parsed.model ?? DEFAULT_MODERATION_MODEL, input: parsed.input };
}

/**
 * The inputs, at most `maxInputs` (the model's `max_inputs`) of them, counted before any is
 * read. A multimodal input is held to the same count of parts: its text parts are classified
 * as one text, which the model's windows bound again.
 */
export function moderationInputs(input: string | unknown[], maxInputs: number): ModerationInputs {
  const at = ['input'];
  if (typeof input === 'string') return [[{ text: parseValue(Text, input, at) }]];
  parseValue(arrayWithin({ min: 1, max: maxInputs }), input, at);
  // Told apart by the first item: an object starts the multimodal form, anything else must be a
  // string array (and a number there is reported as "expected a string").
  if (typeof input[0] === 'object' && input[0] !== null && !Array.isArray(input[0])) {
    const parts = parseValue(Parts, input, at);
    return [
      parts.map((part): ModerationInputPart =>
        part.type === 'text' ? { text: part.text } : { imageUrl: part.image_url.url },
      ),
    ];
  }
  return parseValue(Texts, input, at).map((text) => [{ text }]);
}

/**
 * The texts of each input. Image parts are refused for every model: the moderation service runs
 * text classifiers only (no model in the models file takes images), so nothing is fetched for a
 * request that would be refused anyway. A model that takes images would have them resolved into
 * bytes here, as chat does (chat-images.resolve.ts), and sent as `Image` parts.
 */
export function textInputs(inputs: ModerationInputs, model: string): string[][] {
  return inputs.map((parts) =>
    parts.map((part, index) => {
      if ('text' in part) return part.text;
      // Only the multimodal form has image parts, and its one input's part j is `input[j]`.
      throw OpenAIError.badRequest(
        `Invalid 'input[${index}]': the model '${model}' does not accept images; ` +
          'send text parts only.',
        `input[${index}]`,
        'image_not_supported',
      );
    }),
  );
}
