// POST /v1/moderations request: the OpenAI shape (CreateModerationRequest), validated once here.
// `input` has three forms: a string (one input), an array of strings (one input each, one result
// each, in order) and the multimodal array of text and image parts (one input, one result).
import { z } from 'zod';
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
// How many inputs a request may carry is the model's setting (`max_inputs` in the models file),
// checked by the moderation service.
const Texts = z.array(Text).min(1);
const Parts = z
  .array(
    z.discriminatedUnion(
      'type',
      [
        z.strictObject({ type: z.literal('text'), text: Text }),
        z.strictObject({
          type: z.literal('image_url'),
          image_url: z.strictObject({ url: z.string().min(1) }),
        }),
      ],
      { error: "must have a 'type' of 'text' or 'image_url'" },
    ),
  )
  .min(1);

/** One part of one input: text, or an image named by URL (http(s) or data:). */
export type ModerationInputPart = { text: string } | { imageUrl: string };

export interface ModerationRequest {
  model: string;
  /** One entry per result, each the parts of that input. */
  inputs: ModerationInputPart[][];
}

export function parseModerationRequest(body: unknown): ModerationRequest {
  const parsed = parseBody(ModerationRequestSchema, body);
  const at = ['input'];
  const model = parsed.model ?? DEFAULT_MODERATION_MODEL;
  const { input } = parsed;
  if (typeof input === 'string') {
    return { model, inputs: [[{ text: parseValue(Text, input, at) }]] };
  }
  // Told apart by the first item: an object starts the multimodal form, anything else must be a
  // string array (and a number there is reported as "expected a string").
  if (typeof input[0] === 'object' && input[0] !== null && !Array.isArray(input[0])) {
    const parts = parseValue(Parts, input, at).map((part): ModerationInputPart =>
      part.type === 'text' ? { text: part.text } : { imageUrl: part.image_url.url },
    );
    return { model, inputs: [parts] };
  }
  const texts = parseValue(Texts, input, at);
  return { model, inputs: texts.map((text) => [{ text }]) };
}

/**
 * The texts of each input. Image parts are refused for every model: the moderation service runs
 * text classifiers only (no model in the models file takes images), so nothing is fetched for a
 * request that would be refused anyway. A model that takes images would have them resolved into
 * bytes here, as chat does (chat-images.resolve.ts), and sent as `Image` parts.
 */
export function textInputs(request: ModerationRequest, model: string): string[][] {
  return request.inputs.map((parts) =>
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
