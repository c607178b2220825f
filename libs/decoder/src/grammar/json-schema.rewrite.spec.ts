// The rewrite against XGrammar itself: each rewritten schema is compiled by the real engine and
// strings are checked value by value (exhaustively over small domains) to be accepted exactly
// when Ajv (draft 2020-12, ajv-formats full) accepts the value under the ORIGINAL schema.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Grammar } from '@mlc-ai/web-xgrammar';
import { blocks } from './integer-range.blocks';
import { jsonSchemaEbnf, rewriteJsonSchema, rewriteStructuralTag } from './json-schema.rewrite';
import { jsonTextPattern, UnsupportedPatternError } from './json-string.pattern';
import { loadXGrammar } from './xgrammar.loader';

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats(ajv, { mode: 'full' });
const { xgrammar } = loadXGrammar();

/** The grammar the engine compiles for a schema. */
async function grammarOf(schema: object): Promise<Grammar> {
  return xgrammar.Grammar.fromEBNF(await jsonSchemaEbnf(xgrammar, JSON.stringify(schema)));
}

/** The texts whose acceptance by the grammar differs from Ajv's verdict on their value. */
async function disagreements(schema: object, texts: string[]): Promise<string[]> {
  const grammar = await grammarOf(schema);
  const validate = ajv.compile(schema);
  const wrong: string[] = [];
  for (const text of texts) {
    const accepted = await xgrammar.Testings.isGrammarAcceptString(grammar, text);
    if (accepted !== (parses(text) && validate(JSON.parse(text)))) wrong.push(text);
  }
  grammar.dispose();
  return wrong;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where grammar and Ajv disagree, the grammar may only be stricter (it refused a valid text); the
 * first text is valid and both accept it.
 */
async function onlyStricter(schema: object, texts: string[]): Promise<void> {
  const wrong = await disagreements(schema, texts);
  expect(ajv.validate(schema, JSON.parse(texts[0]))).toBe(true);
  expect(wrong).not.toContain(texts[0]);
  for (const text of wrong) {
    expect([text, ajv.validate(schema, JSON.parse(text))]).toEqual([text, true]);
  }
}

const integers = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe('integer ranges', () => {
  it('cuts a range into aligned blocks that cover it once', () => {
    expect(blocks(0, 120)).toEqual([
      [0, 0],
      [1, 9],
      [10, 99],
      [100, 119],
      [120, 120],
    ]);
    expect(blocks(37, 1042)).toEqual([
      [37, 39],
      [40, 99],
      [100, 999],
      [1000, 1039],
      [1040, 1042],
    ]);
  });

  // Every range XGrammar 0.1.27 got wrong before the rewrite, and neighbours.
  const ranges: [number | undefined, number | undefined][] = [
    [0, 120],
    [3, undefined],
    [-150, undefined],
    [undefined, 150],
    [undefined, -150],
    [undefined, -10],
    [-3, undefined],
    [undefined, 3],
    [-100, 100],
    [5, 240],
    [-40, 60],
    [0, 500],
    [1, 2999],
    [60000, 65535],
    [64990, 65010],
    [37, 1042],
    [-1042, -37],
    [-7, -7],
    [101, 109],
    [99, 101],
    [undefined, undefined],
  ];
  it.each(ranges)('[%p, %p] is exactly its integers', async (minimum, maximum) => {
    const schema = { type: 'integer', minimum, maximum };
    if (minimum === undefined) delete schema.minimum;
    if (maximum === undefined) delete schema.maximum;
    // Every integer from 150 below the lowest bound to 150 above the highest; an open end also
    // around each power of ten (where its blocks change) and at ±(2^53 − 1).
    const values = integers((minimum ?? maximum ?? 0) - 150, (maximum ?? minimum ?? 0) + 150);
    if (minimum === undefined || maximum === undefined) {
      for (const power of [10, 100, 1000, 10000, 1e6, 1e12, 1e15]) {
        for (const value of [power - 1, power, power + 1])
          values.push(String(value), String(-value));
      }
      values.push('9007199254740991', '-9007199254740991');
    }
    expect(await disagreements(schema, values)).toEqual([]);
  });

  it('exclusive bounds, and integer bounds in a type list', async () => {
    // An integer is finite: open ends stop at ±(2^53 − 1).
    const huge = ['1' + '0'.repeat(400), '-' + '9'.repeat(400), '9007199254740991', '-999'];
    expect(await disagreements({ type: 'integer' }, huge)).toEqual([]);
    await onlyStricter({ type: 'integer' }, ['-999', '9007199254740993']);
    const exclusive = { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 100 };
    expect(await disagreements(exclusive, integers(-20, 130))).toEqual([]);
    const nullable = { type: ['integer', 'null'], minimum: 0, maximum: 120 };
    expect(await disagreements(nullable, [...integers(-20, 150), 'null', '"1"'])).toEqual([]);
  });
});

describe('strings', () => {
  const texts = [
    '""',
    '"a"',
    '"abcd"',
    '"abcde"',
    '"a\u0001b"',
    '"a\tb"',
    '"a\\tb"',
    '"a\\u0001b"',
    '"a\\"b"',
    '"a\\\\b"',
  ];

  it('minLength/maxLength count code points and never let a control character through', async () => {
    const schema = { type: 'string', minLength: 2, maxLength: 4 };
    const escaped = ['"\\u00e9\\u00e9"', '"\\ud83d\\ude00\\ud83d\\ude00"', '"\\ud83d\\ude00"'];
    escaped.push('"a\\u4e00\\u00e9\\ud83d\\ude00"', '"\\ud83d\\ude00\\u00e9\\u00e9\\u00e9\\u00e9"');
    expect(await disagreements(schema, [...texts, ...escaped])).toEqual([]);
    // Malformed escapes never pass (XGrammar folds some alternatives that share a prefix wrongly,
    // and the escapes share "\\u").
    const malformed = ['"\\u00e"', '"\\u12"', '"\\x41"', '"ab\\u00e"', '"\\u00e99"'];
    malformed.push('"\\uDBFF\\uDFFF\\u0041"', '"\\u0041\\u00"', '"a\\uD83D\\uDE0"');
    expect(await disagreements(schema, malformed)).toEqual([]);
    // Raw non-ASCII is written as escapes, lone surrogates not at all: only ever stricter.
    await onlyStricter(schema, [
      '"ab"',
      '"\\ud800a"',
      '"\\ud83d\\u0041"',
      '"\\ud83d\\ude00\\ud83d"',
      '"éé"',
      '"😀😀"',
      '"\\udc00a"',
    ]);
  });

  it('a pattern holds on the decoded string: quotes, backslashes and controls are escaped', async () => {
    const cases: [string, string[]][] = [
      [
        '^a.{0,3}$',
        ['"a"', '"a\\"b"', '"a\\"', '"ab\\\\"', '"a\u0001"', '"a\\tb"', '"abcd"', '"abcde"'],
      ],
      ['^[^b]{2}$', ['"ac"', '"ab"', '"\\"\\""', '"\\\\x"', '"\\n\\t"', '"é😀"']],
      ['^[ -~]+$', ['"a b"', '"\\"~"', '"\\\\"', '"é"', '"\u0001"']],
      ['^say "hi"\\\\$', ['"say \\"hi\\"\\\\"', '"say "hi"\\\\"']],
      ['^\\S\\s\\d$', ['"a 1"', '"\\" 1"', '"a\\t1"', '"  1"']],
      ['^\\t\\x41$', ['"\\tA"', '"\tA"']],
    ];
    for (const [pattern, values] of cases) await onlyStricter({ type: 'string', pattern }, values);
    expect(jsonTextPattern('^[A-Z]{3}$')).toBe('^[\\u0041-\\u005a]{3}$');
    // Non-ASCII code points are written as escapes where the pattern allows all of them.
    const notB = { type: 'string', pattern: '^[^b]$' };
    await onlyStricter(notB, ['"\\u00e9"', '"é"', '"😀"', '"b"', '"\\""']);
    expect(await disagreements(notB, ['"\\u00e9"', '"\\ud83d\\ude00"', '"\\u0062"'])).toEqual([]);
    expect(() => jsonTextPattern('^[é-ÿ]$')).toThrow(UnsupportedPatternError);
  });
});

describe('formats', () => {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');

  it('date: every day that exists, leap years included, and no other', async () => {
    const dates: string[] = [];
    for (const year of [1900, 2000, 2023, 2024])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) dates.push(`"${year}-${pad(month)}-${pad(day)}"`);
    expect(await disagreements({ type: 'string', format: 'date' }, dates)).toEqual([]);
  });

  it('time and date-time: no 60th minute or second, offsets required', async () => {
    const times = ['"23:59:59Z"', '"23:60:00Z"', '"12:00:60Z"', '"24:00:00Z"', '"12:00:00"'];
    times.push('"12:00:00.123+05:30"', '"12:00:00-24:00"', '"12:00:00+23:59"', '"07:05:09z"');
    const agree = await disagreements({ type: 'string', format: 'time' }, times);
    // The grammar leaves out only the leap second Ajv would take at 23:59:60 UTC.
    expect(agree).toEqual([]);
    const dateTimes = [
      '"2024-02-29T12:00:00Z"',
      '"2023-02-29T12:00:00Z"',
      '"2024-04-31T00:00:00Z"',
    ];
    dateTimes.push('"2024-01-01T10:60:00Z"', '"2024-01-01t10:00:00+01:00"');
    expect(await disagreements({ type: 'string', format: 'date-time' }, dateTimes)).toEqual([]);
  });

  it('ipv4: octets 0–255 without leading zeros', async () => {
    const octets = [...integers(0, 300), '00', '01', '007', '099'];
    const addresses = octets.map((octet) => `"10.${octet}.0.1"`);
    expect(await disagreements({ type: 'string', format: 'ipv4' }, addresses)).toEqual([]);
  });

  it('uuid, email, hostname, duration, ipv6: what the grammar writes validates', async () => {
    const cases: [string, string[]][] = [
      ['uuid', ['"123e4567-e89b-12d3-a456-426614174000"', '"123e4567-e89b-12d3-a456-42661417400"']],
      ['email', ['"a.b@example.com"', '"a..b@example.com"', '"a@-x.com"', '"a@x"']],
      ['hostname', ['"example.com"', '"-x.com"', '"a.b.c.d"', '"x-.com"']],
      ['duration', ['"P1Y2M3DT4H5M6S"', '"P"', '"PT"', '"P1W"', '"P1DT"', '"PT1M"']],
      ['ipv6', ['"1:2:3:4:5:6:7:8"', '"1:2:3:4:5:6:7"', '"12345::"']],
    ];
    for (const [format, values] of cases) await onlyStricter({ type: 'string', format }, values);
  });
});

describe('where the rewrite applies', () => {
  it('drops number bounds (not enforced), keeps numbers finite, leaves enum and const alone', async () => {
    const finite = { type: 'number', minimum: -1e15, maximum: 1e15 };
    expect(rewriteJsonSchema({ type: 'number', minimum: 0, maximum: 1 }).schema).toEqual(finite);
    const numbers = ['3.25', '0', '-0.5', '1e400', '-1e400', '12345678901234567890', '0.1234567'];
    await onlyStricter({ type: 'number' }, numbers);
    expect(await disagreements({ type: 'number' }, ['1e400', '-1e400'])).toEqual([]);
    const enumerated = { type: 'integer', enum: [1, 500], maximum: 600 };
    expect(rewriteJsonSchema(enumerated).schema).toEqual(enumerated);
  });

  it('reaches nested schemas and $defs', async () => {
    const bounded = { type: 'integer', minimum: 0, maximum: 120 };
    const schema = {
      type: 'object',
      properties: { a: { type: 'array', items: bounded, maxItems: 2 } },
      required: ['a', 'b'],
      $defs: { b: { anyOf: [bounded, { type: 'null' }] } },
    };
    (schema.properties as Record<string, unknown>).b = { $ref: '#/$defs/b' };
    expect(rewriteJsonSchema(schema).integerRules).toHaveLength(2);
    const texts = ['{"a": [120, 0], "b": null}', '{"a": [121], "b": null}', '{"a": [], "b": 125}'];
    expect(await disagreements(schema, texts)).toEqual([]);
  });

  it('turns the json_schema formats of a structural tag into their exact grammars', async () => {
    const bounded = { type: 'integer', minimum: 0, maximum: 120 };
    const tag = {
      type: 'structural_tag',
      format: {
        type: 'tag',
        begin: '<a>',
        content: { type: 'json_schema', json_schema: bounded },
        end: '</a>',
      },
    };
    const rewritten = JSON.parse(await rewriteStructuralTag(xgrammar, JSON.stringify(tag)));
    expect(rewritten.format.content.type).toBe('grammar');
    const grammar = await xgrammar.Grammar.fromStructuralTag(JSON.stringify(rewritten));
    expect(await xgrammar.Testings.isGrammarAcceptString(grammar, '<a>120</a>')).toBe(true);
    expect(await xgrammar.Testings.isGrammarAcceptString(grammar, '<a>121</a>')).toBe(false);
    grammar.dispose();
  });
});
