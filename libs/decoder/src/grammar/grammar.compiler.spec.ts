// The grammar engine against the real SmolLM2 vocabulary (the tiny-llama fixture's tokenizer):
// masks are stepped token by token and checked against the strings the schema allows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChatTokenizer, loadLocalTokenizer, type ChatTokenizer } from '@tessera/text';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { TINY_LLAMA } from '../../test/tiny-models';
import { GrammarCompileError } from '../decoder.errors';
import type { OutputConstraint } from '../decoder.protocol';
import type { SequenceConstraint } from './constraint.contract';
import { XGrammarCompiler } from './grammar.compiler';
import { applyTokenBitmask, GrammarConstraint } from './grammar.constraint';
import { readEncodedVocab } from './tokenizer-vocab.reader';

const VOCAB = 49152;
const EVERY_SUBSET_KEYWORD = join(
  __dirname,
  '../../../../test/fixtures/json-schema/every-subset-keyword.schema.json',
);
const EOS = 2;

describe('XGrammarCompiler', () => {
  let compiler: XGrammarCompiler;
  let tokenizer: ChatTokenizer;
  let encoder: PreTrainedTokenizer;

  beforeAll(async () => {
    const vocab = await readEncodedVocab(TINY_LLAMA);
    compiler = await XGrammarCompiler.create({ vocab, vocabSize: VOCAB, eosTokenIds: [EOS] });
    tokenizer = await loadChatTokenizer(TINY_LLAMA);
    encoder = await loadLocalTokenizer(TINY_LLAMA);
  });
  afterAll(() => compiler.dispose());

  async function one(constraint: OutputConstraint): Promise<SequenceConstraint> {
    const { sequences } = await compiler.constraints(constraint, 1);
    return sequences[0];
  }

  /** The ids the constraint allows next. */
  async function allowed(constraint: SequenceConstraint): Promise<number[]> {
    await constraint.prepare();
    const row = new Float32Array(VOCAB);
    constraint.process(row);
    const ids: number[] = [];
    row.forEach((logit, id) => logit === 0 && ids.push(id));
    return ids;
  }

  const textOf = (id: number) => tokenizer.tokenInfo(id).token;

  it('reads SmolLM2 as a byte-level vocabulary with every id', async () => {
    const vocab = await readEncodedVocab(TINY_LLAMA);
    expect(vocab.vocabType).toBe('byte_level');
    expect(vocab.prependSpace).toBe(false);
    expect(vocab.tokens).toHaveLength(VOCAB);
    expect(vocab.tokens[EOS]).toBe('<|im_end|>');
  });

  it('allows exactly the tokens that keep the output a prefix of a value the schema accepts', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { ok: { type: 'boolean' }, n: { enum: [1, 22] } },
      required: ['ok', 'n'],
      additionalProperties: false,
    });
    const valid = [
      '{"ok": true, "n": 1}',
      '{"ok": true, "n": 22}',
      '{"ok": false, "n": 1}',
      '{"ok": false, "n": 22}',
    ];
    const constraint = await one({ type: 'json_schema', schema });
    let text = '';
    // Each step: every allowed token keeps a valid prefix, and the longest one is taken.
    for (let step = 0; step < 40 && !valid.includes(text); step++) {
      const ids = await allowed(constraint);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).not.toContain(EOS);
      for (const id of ids) {
        expect(valid.some((v) => v.startsWith(text + textOf(id)))).toBe(true);
      }
      // Every token the schema needs at this point is allowed (a sample of the vocabulary).
      for (let id = 0; id < VOCAB; id += 97) {
        if (valid.some((v) => v.startsWith(text + textOf(id))) && textOf(id) !== '') {
          expect(ids).toContain(id);
        }
      }
      const pick = ids.reduce((a, b) => (textOf(b).length > textOf(a).length ? b : a));
      constraint.accept?.(pick);
      text += textOf(pick);
    }
    expect(valid).toContain(text);
    // Complete: only the end-of-sequence token remains, and it ends the grammar.
    expect(await allowed(constraint)).toEqual([EOS]);
    constraint.accept?.(EOS);
    expect((constraint as GrammarConstraint).terminated).toBe(true);
    constraint.dispose();
  });

  it('holds json_object to an object and follows the tokens of one', async () => {
    const constraint = await one({ type: 'json_object' });
    const first = (await allowed(constraint)).map(textOf);
    expect(first.length).toBeGreaterThan(0);
    for (const token of first) expect(token.startsWith('{')).toBe(true);
    for (const id of encoder.encode('{"a": [1, {"b": null}], "c": "x"}', {
      add_special_tokens: false,
    })) {
      expect(await allowed(constraint)).toContain(id);
      constraint.accept?.(id);
    }
    expect(await allowed(constraint)).toEqual([EOS]);
    constraint.dispose();
  });

  it('compiles a schema using every keyword of the documented subset, recursion included', async () => {
    const schema = readFileSync(EVERY_SUBSET_KEYWORD, 'utf8');
    const constraint = await one({ type: 'json_schema', schema });
    for (const id of encoder.encode('{"id": "', { add_special_tokens: false })) {
      constraint.accept?.(id);
    }
    // A uuid starts with a hex digit.
    const next = (await allowed(constraint)).map(textOf);
    expect(next.length).toBeGreaterThan(0);
    for (const token of next) expect(token).toMatch(/^[0-9a-fA-F]/);
    constraint.dispose();
  });

  it('takes an empty schema as any JSON value', async () => {
    const constraint = await one({ type: 'json_schema', schema: '{}' });
    const first = new Set((await allowed(constraint)).map((id) => textOf(id)[0]));
    for (const start of ['{', '[', '"', '1', 't', 'n']) expect(first).toContain(start);
    constraint.dispose();
  });

  it('compiles a repeated constraint once and reports the cache hit', async () => {
    const constraint: OutputConstraint = {
      type: 'json_schema',
      schema: '{"type":"object","properties":{"cached":{"type":"integer"}},"required":["cached"]}',
    };
    const before = compiler.stats;
    const first = await compiler.constraints(constraint, 2);
    const second = await compiler.constraints(constraint, 1);
    expect(first.info.cacheHit).toBe(false);
    expect(first.info.compileMs).toBeGreaterThan(0);
    expect(second.info).toEqual({ cacheHit: true, compileMs: 0 });
    expect(compiler.stats.compilations).toBe(before.compilations + 1);
    expect(compiler.stats.cacheHits).toBe(before.cacheHits + 1);
    expect(first.sequences).toHaveLength(2);
    for (const s of [...first.sequences, ...second.sequences]) s.dispose();
  });

  it('keeps at most its capacity of compiled grammars, dropping the least recently used', async () => {
    const vocab = await readEncodedVocab(TINY_LLAMA);
    const small = await XGrammarCompiler.create({ vocab, vocabSize: VOCAB, eosTokenIds: [EOS] }, 2);
    const schema = (type: string): OutputConstraint => ({
      type: 'json_schema',
      schema: `{"type":"${type}"}`,
    });
    await small.compile(schema('integer'));
    await small.compile(schema('boolean'));
    await small.compile(schema('integer'));
    await small.compile(schema('null'));
    expect(small.stats.cached).toBe(2);
    expect((await small.compile(schema('integer'))).info.cacheHit).toBe(true);
    expect((await small.compile(schema('boolean'))).info.cacheHit).toBe(false);
    small.dispose();
  });

  it('bans the logits rows past the tokenizer when the model has more', async () => {
    const vocab = await readEncodedVocab(TINY_LLAMA);
    const padded = await XGrammarCompiler.create({
      vocab,
      vocabSize: VOCAB + 64,
      eosTokenIds: [EOS],
    });
    const { sequences } = await padded.constraints({ type: 'json_schema', schema: '{}' }, 1);
    await sequences[0].prepare();
    const row = new Float32Array(VOCAB + 64);
    sequences[0].process(row);
    expect(row.slice(VOCAB).every((logit) => logit === -Infinity)).toBe(true);
    expect(row.slice(0, VOCAB).some((logit) => logit === 0)).toBe(true);
    sequences[0].dispose();
    padded.dispose();
  });

  it.each([
    ['an unknown type', '{"type":"strin"}', /Unsupported type "strin"/],
    ['an unresolvable $ref', '{"type":"object","properties":{"a":{"$ref":"#/nope"}}}', /nope/],
    ['an invalid pattern', '{"type":"string","pattern":"(("}', /parenthesis/],
  ])('refuses %s with a GrammarCompileError and keeps working', async (_, schema, message) => {
    const failing = compiler.constraints({ type: 'json_schema', schema }, 1);
    await expect(failing).rejects.toThrow(GrammarCompileError);
    await expect(failing).rejects.toThrow(message);
    const after = await one({ type: 'json_schema', schema: '{"type":"boolean"}' });
    expect((await allowed(after)).map(textOf).sort()).toEqual(
      expect.arrayContaining(['true', 'false']),
    );
    after.dispose();
  });

  it('lets text through until a structural tag is triggered, then forces its JSON', async () => {
    const structuralTag = JSON.stringify({
      type: 'structural_tag',
      format: {
        type: 'triggered_tags',
        triggers: ['<tool_call>'],
        tags: [
          {
            type: 'tag',
            begin: '<tool_call>\n',
            content: {
              type: 'json_schema',
              json_schema: {
                type: 'object',
                properties: { name: { const: 'get_weather' } },
                required: ['name'],
              },
            },
            end: '\n</tool_call>',
          },
        ],
      },
    });
    const constraint = await one({ type: 'structural_tag', structuralTag });
    // Free text: nearly every token is allowed, EOS included.
    const free = await allowed(constraint);
    expect(free.length).toBeGreaterThan(VOCAB / 2);
    expect(free).toContain(EOS);
    for (const id of encoder.encode('Sure. <tool_call>\n', { add_special_tokens: false })) {
      expect(await allowed(constraint)).toContain(id);
      constraint.accept?.(id);
    }
    const inside = (await allowed(constraint)).map(textOf);
    expect(inside.length).toBeGreaterThan(0);
    for (const token of inside) expect('{"name": "get_weather"}'.startsWith(token)).toBe(true);
    constraint.dispose();
  });

  it('forces a tool call from the first token with at_least_one, then only EOS after it', async () => {
    const tag = (name: string) => ({
      type: 'tag',
      begin: `<tool_call>\n{"name": "${name}", "arguments": `,
      content: {
        type: 'json_schema',
        json_schema: {
          type: 'object',
          properties: { city: { enum: ['Paris'] } },
          required: ['city'],
        },
      },
      end: '}\n</tool_call>',
    });
    const structuralTag = JSON.stringify({
      type: 'structural_tag',
      format: {
        type: 'triggered_tags',
        triggers: ['<tool_call>'],
        tags: [tag('get_weather'), tag('get_time')],
        at_least_one: true,
        stop_after_first: true,
      },
    });
    const constraint = await one({ type: 'structural_tag', structuralTag });
    const first = (await allowed(constraint)).map(textOf);
    expect(first.length).toBeGreaterThan(0);
    for (const token of first) expect('<tool_call>'.startsWith(token)).toBe(true);
    const call = '<tool_call>\n{"name": "get_time", "arguments": {"city": "Paris"}}\n</tool_call>';
    for (const id of encoder.encode(call, { add_special_tokens: false })) {
      expect(await allowed(constraint)).toContain(id);
      constraint.accept?.(id);
    }
    expect(await allowed(constraint)).toEqual([EOS]);
    constraint.dispose();
  });

  it('frees its matcher once, however often it is disposed', () => {
    const dispose = jest.fn();
    const matcher = { dispose } as unknown as ConstructorParameters<typeof GrammarConstraint>[0];
    const constraint = new GrammarConstraint(matcher);
    constraint.dispose();
    constraint.dispose();
    expect(dispose).toHaveBeenCalledTimes(1);
  });

  it('bans the tokens whose bit is clear and every row past the mask', () => {
    const mask = Int32Array.of(-1, 0b101);
    const row = new Float32Array(70).fill(1);
    applyTokenBitmask(mask, row);
    expect(row.slice(0, 32).every((x) => x === 1)).toBe(true);
    expect([row[32], row[33], row[34]]).toEqual([1, -Infinity, 1]);
    expect(row.slice(35).every((x) => x === -Infinity)).toBe(true);
  });
});
