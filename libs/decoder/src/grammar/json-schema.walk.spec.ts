// Property: whatever a model picks among the tokens the grammar allows, the output validates.
// For each schema of the structured-output e2e corpus, random walks over the real SmolLM2
// vocabulary (the tiny-llama fixture's tokenizer) pick uniformly among the allowed tokens until
// the end-of-sequence token; the decoded text must parse and validate with Ajv (draft 2020-12,
// strict, ajv-formats full) against the schema as sent. Uniform picks wander into every corner
// the grammar leaves open (escapes, control characters, digits, leap days) far more than a model.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { loadLocalTokenizer } from '@tessera/text';
import { seededRandom } from '../../../../bench/lib/seeded.random';
import { STRUCTURED_CASES } from '../../../../test/support/structured-schemas';
import { TINY_LLAMA } from '../../test/tiny-models';
import type { SequenceConstraint } from './constraint.contract';
import { XGrammarCompiler } from './grammar.compiler';
import { readEncodedVocab } from './tokenizer-vocab.reader';

const VOCAB = 49152;
const EOS = 2;
const WALKS = 4;
/** A walk longer than this is a grammar that does not bound its value: the test fails. */
const MAX_STEPS = 600;

/**
 * The ids the prepared mask allows, read from its bits. (Applying it to a logits row, as the
 * sampler does, is the same function the scheduler specs cover, and under ts-jest its per-element
 * writes cost ~15 ms a step: reading the bits keeps this test at a few ms a step.)
 */
function allowedIds(constraint: SequenceConstraint): number[] {
  const mask = (constraint as unknown as { mask: Int32Array }).mask;
  const ids: number[] = [];
  for (let word = 0; word < mask.length; word++) {
    const bits = mask[word];
    if (bits === 0) continue;
    for (let bit = 0; bit < 32; bit++) if (bits & (1 << bit)) ids.push(word * 32 + bit);
  }
  return ids.filter((id) => id < VOCAB);
}

describe('random walks through the grammar of each corpus schema', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv, { mode: 'full' });
  let compiler: XGrammarCompiler;
  let encoder: PreTrainedTokenizer;

  beforeAll(async () => {
    const vocab = await readEncodedVocab(TINY_LLAMA);
    compiler = await XGrammarCompiler.create({ vocab, vocabSize: VOCAB, eosTokenIds: [EOS] });
    encoder = await loadLocalTokenizer(TINY_LLAMA);
  });
  afterAll(() => compiler.dispose());

  it.each(STRUCTURED_CASES.map((c, i) => [c.name, c, i] as const))(
    '%s: every walk validates',
    async (_name, { schema }, index) => {
      const validate = ajv.compile(schema);
      // Seeded, so a failure is reproducible.
      const next = seededRandom(index + 1);
      const { sequences } = await compiler.constraints(
        { type: 'json_schema', schema: JSON.stringify(schema) },
        WALKS,
      );
      for (const constraint of sequences) {
        const ids: number[] = [];
        for (let step = 0; ; step++) {
          expect(step).toBeLessThan(MAX_STEPS);
          await constraint.prepare();
          const allowed = allowedIds(constraint);
          const pick = allowed[Math.floor(next() * allowed.length)];
          constraint.accept?.(pick);
          if (pick === EOS) break;
          ids.push(pick);
        }
        constraint.dispose();
        const text = encoder.decode(ids, { clean_up_tokenization_spaces: false });
        let value: unknown;
        expect(() => (value = JSON.parse(text))).not.toThrow();
        expect([text, validate(value) ? 'valid' : ajv.errorsText(validate.errors)]).toEqual([
          text,
          'valid',
        ]);
      }
    },
  );
});
