// The JSON Schema corpus of the structured-output end-to-end tests (test/chat-structured.e2e-spec
// .ts). Every schema is BOUNDED: strings have a maxLength (or a pattern, enum, const or format
// of fixed length), integers a range, arrays a maxItems, and there is no unbounded
// recursion. A random-weight model fills any string the grammar allows with whatever
// it likes, so only a bounded schema lets it reach the end of the value within a modest
// max_tokens: the grammar (not the model) then guarantees validity, and the tests check it with
// Ajv against the very schema sent. Unbounded schemas are checked on real weights
// (test/extended/chat-smollm2-structured.e2e-spec.ts).
//
// Together they cover what docs/chat.md lists as the supported subset: type (object, array,
// string, integer, boolean, null, and type lists), properties, required and optional properties,
// additionalProperties false, enum, const, anyOf, $ref/$defs (chained), prefixItems, arrays with
// items/minItems/maxItems, nested objects and arrays, strings with minLength/maxLength, pattern
// and format (date, date-time, time, uuid, ipv4), integers with minimum/maximum and exclusive
// bounds, numbers (which the engine writes with at most 16 + 6 digits).

export interface StructuredCase {
  /** The json_schema `name` sent (`^[a-zA-Z0-9_-]{1,64}$`). */
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /**
   * Enough tokens for the longest value the grammar lets a random model write: above the longest
   * of 12 walks that picked uniformly among the tokens XGrammar allowed (a worse case than the
   * fixtures' peaked logits). A choice that still ends on 'length' fails the test.
   */
  readonly maxTokens: number;
  /** `strict` sent with the schema (most are strict; a few check the non-strict path). */
  readonly strict: boolean;
}

const shortText = (maxLength: number) => ({ type: 'string', maxLength });
const formatted = (format: string) => ({ type: 'string', format });
const range = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum });
/** An object whose properties are all required and that admits no other property. */
const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

export const STRUCTURED_CASES: readonly StructuredCase[] = [
  {
    name: 'person',
    strict: true,
    maxTokens: 96,
    schema: closed({
      name: { type: 'string', minLength: 1, maxLength: 24 },
      age: range(0, 120),
      member: { type: 'boolean' },
    }),
  },
  {
    name: 'postal_address',
    strict: true,
    maxTokens: 128,
    schema: closed({
      street: shortText(32),
      city: shortText(20),
      zip: { type: 'string', pattern: '^[0-9]{5}$' },
      country: { type: 'string', enum: ['US', 'FR', 'DE', 'JP'] },
    }),
  },
  {
    name: 'purchase-order',
    strict: true,
    maxTokens: 224,
    schema: closed({
      orderId: { type: 'string', pattern: '^ORD-[0-9]{6}$' },
      status: { type: 'string', enum: ['pending', 'shipped', 'delivered', 'cancelled'] },
      lines: {
        type: 'array',
        minItems: 1,
        maxItems: 3,
        items: closed({
          sku: { type: 'string', pattern: '^[A-Z]{3}[0-9]{3}$' },
          quantity: range(1, 99),
        }),
      },
    }),
  },
  {
    name: 'versioned_event',
    strict: true,
    maxTokens: 96,
    schema: closed({
      version: { const: 2 },
      kind: { const: 'event' },
      level: { type: 'string', enum: ['debug', 'info', 'warn', 'error'] },
      message: shortText(40),
    }),
  },
  {
    name: 'shape',
    strict: true,
    maxTokens: 96,
    schema: closed({
      shape: {
        anyOf: [
          closed({ kind: { const: 'circle' }, radius: range(1, 100) }),
          closed({ kind: { const: 'rectangle' }, width: range(1, 100), height: range(1, 100) }),
          closed({ kind: { const: 'point' } }),
        ],
      },
    }),
  },
  {
    name: 'line_segment',
    strict: true,
    maxTokens: 128,
    schema: closed(
      {
        from: { $ref: '#/$defs/point' },
        to: { $ref: '#/$defs/point' },
        style: { $ref: '#/$defs/style' },
      },
      {
        $defs: {
          point: closed({ x: range(-100, 100), y: range(-100, 100) }),
          style: { type: 'string', enum: ['solid', 'dashed', 'dotted'] },
        },
      },
    ),
  },
  {
    name: 'feature_flags',
    strict: true,
    maxTokens: 96,
    schema: closed({
      darkMode: { type: 'boolean' },
      beta: { type: 'boolean' },
      notifications: closed({ email: { type: 'boolean' }, sms: { type: 'boolean' } }),
    }),
  },
  {
    name: 'tagged_note',
    strict: true,
    maxTokens: 128,
    schema: closed({
      title: shortText(30),
      tags: {
        type: 'array',
        minItems: 1,
        maxItems: 4,
        items: { type: 'string', enum: ['work', 'home', 'urgent', 'later', 'idea'] },
      },
    }),
  },
  {
    name: 'contact_nullable',
    strict: true,
    maxTokens: 128,
    schema: closed({
      firstName: shortText(16),
      middleName: { anyOf: [shortText(16), { type: 'null' }] },
      phone: { type: ['string', 'null'], pattern: '^\\+[0-9]{6,12}$' },
    }),
  },
  {
    name: 'digit_matrix',
    strict: true,
    maxTokens: 128,
    schema: closed({
      rows: {
        type: 'array',
        minItems: 1,
        maxItems: 3,
        items: { type: 'array', minItems: 1, maxItems: 3, items: range(0, 9) },
      },
    }),
  },
  {
    name: 'measurement_tuple',
    strict: true,
    maxTokens: 96,
    schema: closed({
      reading: {
        type: 'array',
        prefixItems: [shortText(8), range(-40, 60), { type: 'boolean' }],
        items: false,
        minItems: 3,
      },
    }),
  },
  {
    name: 'meeting',
    strict: true,
    maxTokens: 160,
    schema: closed({
      day: formatted('date'),
      start: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
      minutes: range(5, 240),
      attendees: { type: 'array', maxItems: 3, items: shortText(16) },
    }),
  },
  {
    name: 'record_ids',
    strict: true,
    maxTokens: 128,
    schema: closed({
      id: formatted('uuid'),
      createdOn: formatted('date'),
    }),
  },
  {
    name: 'log_times',
    strict: true,
    maxTokens: 128,
    schema: closed({ at: formatted('date-time'), local: formatted('time') }),
  },
  {
    name: 'sensor_ratio',
    strict: true,
    maxTokens: 96,
    // A number (finite, at most 6 decimals as compiled) and an integer with exclusive bounds.
    // Number bounds are outside the subset: XGrammar 0.1.27 does not enforce them.
    schema: closed({
      ratio: { type: 'number' },
      celsius: { type: 'integer', exclusiveMinimum: -50, exclusiveMaximum: 60 },
    }),
  },
  {
    name: 'endpoint',
    strict: true,
    maxTokens: 96,
    schema: closed({
      host: formatted('ipv4'),
      port: range(1, 65535),
      tls: { type: 'boolean' },
      protocol: { type: 'string', enum: ['http', 'grpc', 'tcp'] },
    }),
  },
  {
    name: 'org_chart',
    strict: true,
    maxTokens: 320,
    // Depth bounded by a chain of definitions (team → member → role), not by recursion.
    schema: closed(
      {
        name: shortText(16),
        teams: { type: 'array', maxItems: 2, items: { $ref: '#/$defs/team' } },
      },
      {
        $defs: {
          team: closed({
            name: shortText(16),
            members: { type: 'array', maxItems: 2, items: { $ref: '#/$defs/member' } },
          }),
          member: closed({ name: shortText(16), role: { $ref: '#/$defs/role' } }),
          role: { type: 'string', enum: ['lead', 'engineer', 'designer'] },
        },
      },
    ),
  },
  {
    name: 'task_optional_fields',
    strict: true,
    maxTokens: 128,
    // Only `title` is required: the grammar must allow each optional property to be left out.
    schema: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 24 },
        priority: { type: 'string', enum: ['low', 'medium', 'high'] },
        estimate: range(1, 40),
        done: { type: 'boolean' },
      },
      required: ['title'],
      additionalProperties: false,
    },
  },
  {
    name: 'exclusive_bounds',
    strict: true,
    maxTokens: 64,
    schema: closed({
      percent: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 100 },
      offset: range(-5, 5),
    }),
  },
  {
    name: 'escaped_enums',
    strict: true,
    maxTokens: 64,
    // Values that need escaping or are not ASCII: the grammar must write them as JSON.
    schema: closed({
      word: { type: 'string', enum: ['café', 'naïve', 'quote"d', 'back\\slash', 'tab\tbed'] },
      symbol: { const: '→' },
    }),
  },
  {
    name: 'code_lengths',
    strict: true,
    maxTokens: 96,
    schema: closed({
      code: { type: 'string', minLength: 4, maxLength: 8 },
      initials: { type: 'string', pattern: '^[A-Z]{2,3}$' },
    }),
  },
  {
    name: 'mixed_any_of',
    strict: false,
    maxTokens: 96,
    schema: closed({
      value: {
        anyOf: [range(0, 10), { type: 'boolean' }, { type: 'string', enum: ['none', 'many'] }],
      },
      unit: { anyOf: [{ const: 'kg' }, { const: 'lb' }, { type: 'null' }] },
    }),
  },
  {
    name: 'inventory',
    strict: false,
    maxTokens: 384,
    schema: closed({
      warehouse: { type: 'string', pattern: '^WH-[0-9]{2}$' },
      bins: {
        type: 'array',
        minItems: 1,
        maxItems: 2,
        items: closed({
          label: shortText(12),
          items: {
            type: 'array',
            maxItems: 2,
            items: closed({
              kind: { type: 'string', enum: ['bolt', 'nut', 'washer'] },
              count: range(0, 500),
              tags: { type: 'array', maxItems: 2, items: { const: 'fragile' } },
            }),
          },
        }),
      },
    }),
  },
  {
    name: 'rgb_color',
    strict: true,
    maxTokens: 64,
    schema: closed({
      name: shortText(12),
      rgb: { type: 'array', minItems: 3, maxItems: 3, items: range(0, 255) },
    }),
  },
  {
    name: 'survey_answer',
    strict: false,
    maxTokens: 192,
    schema: closed({
      respondent: closed({ id: range(1, 9999), anonymous: { type: 'boolean' } }),
      answers: {
        type: 'array',
        minItems: 2,
        maxItems: 3,
        items: {
          anyOf: [
            closed({ question: range(1, 20), score: range(1, 5) }),
            closed({ question: range(1, 20), skipped: { const: true } }),
          ],
        },
      },
    }),
  },
];
