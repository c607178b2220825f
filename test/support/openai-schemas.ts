// The official OpenAI schemas as validators (openai-chat.schemas.json: the components of the
// spec that chat, error and model objects use; openai-moderation.schemas.json: the moderations
// endpoint's; openai-speech.schemas.json: the speech endpoint's request and stream events;
// openai-transcription.schemas.json: the transcription and translation responses and events; all
// taken from the OpenAPI document), so e2e tests check every response and
// every streamed chunk against the spec itself, not against our idea of it. The spec mixes
// OpenAPI 3.0 `nullable` into its 3.1 schemas: those are rewritten to "this, or null" first, as
// OpenAPI 3.0 defines `nullable`.
import Ajv, { type ValidateFunction } from 'ajv';
import chatSchemas from './openai-chat.schemas.json';
import moderationSchemas from './openai-moderation.schemas.json';
import speechSchemas from './openai-speech.schemas.json';
import transcriptionSchemas from './openai-transcription.schemas.json';

const ajv = new Ajv({ strict: false, allErrors: true });
// Formats the spec uses; their values are checked by the tests where they matter.
ajv.addFormat('unixtime', true);
ajv.addFormat('uri', true);
ajv.addSchema({
  $id: 'openai',
  components: withNullable({
    schemas: {
      ...chatSchemas.components.schemas,
      ...moderationSchemas.components.schemas,
      ...speechSchemas.components.schemas,
      ...transcriptionSchemas.components.schemas,
    },
  }),
});

const validators = new Map<string, ValidateFunction>();

/** Throws (listing every violation) unless `value` is a valid `name` of the spec. */
export function expectSchema(name: string, value: unknown): void {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile({ $ref: `openai#/components/schemas/${name}` });
    validators.set(name, validate);
  }
  if (!validate(value)) {
    throw new Error(
      `not a valid ${name}: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n` +
        JSON.stringify(value),
    );
  }
}

/** `{…, nullable: true}` → `{anyOf: [{…}, {type: 'null'}]}`, everywhere in the document. */
function withNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullable);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, withNullable(value)]),
  );
  return nullable === true ? { anyOf: [converted, { type: 'null' }] } : converted;
}
