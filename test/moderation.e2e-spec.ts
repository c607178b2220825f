// /v1/moderations end to end: the official SDK and raw HTTP → gateway → gRPC → moderation
// service → ONNX Runtime on the tiny random-weight fixture classifiers. With random weights no
// text is "toxic"; what is checked is the shape, the map, the thresholds, the windowing and the
// batching, each against scores the same service computes.
import { AutoTokenizer } from '@huggingface/transformers';
import { MODERATION_CATEGORIES } from '@tessera/contracts';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import type OpenAI from 'openai';
import * as fs from 'node:fs';
import { expectSchema } from './support/openai-schemas';
import { startModerationStack, useModerationStack } from './support/moderation-stack';
import { post } from './support/test-stack';

// Two fixture classifiers behind one id (config/models.fixtures.yaml), their categories merged.
const MODEL = 'tiny-moderation';
const stack = useModerationStack();
/** Tokens each window shares with the next, for the `windowed` model below. */
const WINDOW_OVERLAP = 16;

type Result = OpenAI.Moderation;
type Scores = Record<string, number>;

async function moderate(input: OpenAI.ModerationCreateParams['input'], model = MODEL) {
  const response = await stack().gateway.client.moderations.create({ model, input });
  expectSchema('CreateModerationResponse', response);
  return response;
}

const scoresOf = (result: Result) => result.category_scores as unknown as Scores;
const flagsOf = (result: Result) => result.categories as unknown as Record<string, boolean>;
const appliedOf = (result: Result) =>
  result.category_applied_input_types as unknown as Record<string, string[]>;

function expectSameScores(actual: Result, expected: Result, tolerance = 1e-6) {
  for (const category of MODERATION_CATEGORIES) {
    expect(Math.abs(scoresOf(actual)[category] - scoresOf(expected)[category])).toBeLessThanOrEqual(
      tolerance,
    );
  }
}

describe('POST /v1/moderations', () => {
  it('classifies a string: one result with all 13 categories, as the spec shapes them', async () => {
    const response = await moderate('hello there, how are you?');
    expect(response.id).toMatch(/^modr-[0-9a-f]{32}$/);
    expect(response.model).toBe(MODEL);
    expect(response.results).toHaveLength(1);
    const [result] = response.results;
    const keys = [...MODERATION_CATEGORIES].sort();
    expect(Object.keys(result.categories).sort()).toEqual(keys);
    expect(Object.keys(result.category_scores).sort()).toEqual(keys);
    expect(Object.keys(result.category_applied_input_types).sort()).toEqual(keys);
    for (const category of MODERATION_CATEGORIES) {
      expect(typeof flagsOf(result)[category]).toBe('boolean');
      const score = scoresOf(result)[category];
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      // A text input: a covered category applies to text, an uncovered one to nothing.
      expect([['text'], []]).toContainEqual(appliedOf(result)[category]);
    }
    expect(result.flagged).toBe(MODERATION_CATEGORIES.some((c) => flagsOf(result)[c]));
    expect(Object.keys(response).sort()).toEqual(['id', 'model', 'results']);
  });

  it('gives each request its own id', async () => {
    const [a, b] = await Promise.all([moderate('one'), moderate('one')]);
    expect(a.id).not.toBe(b.id);
  });

  it('classifies an array of strings: one result each, in order, each as if alone', async () => {
    const texts = ['the first text', 'a second, rather longer text about the weather', 'third'];
    const together = await moderate(texts);
    expect(together.results).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) {
      const alone = await moderate(text);
      expectSameScores(together.results[i], alone.results[0]);
      expect(together.results[i].categories).toEqual(alone.results[0].categories);
    }
    expect(scoresOf(together.results[0])).not.toEqual(scoresOf(together.results[1]));
  });

  it('classifies the multimodal form of text parts as one input', async () => {
    const parts = await moderate([{ type: 'text', text: 'good morning to you' }]);
    const plain = await moderate('good morning to you');
    expect(parts.results).toHaveLength(1);
    expectSameScores(parts.results[0], plain.results[0]);
    const two = await moderate([
      { type: 'text', text: 'good morning' },
      { type: 'text', text: 'see you later' },
    ]);
    expect(two.results).toHaveLength(1);
    // One input: its text parts read as one text, a line each.
    expectSameScores(two.results[0], (await moderate('good morning\nsee you later')).results[0]);
  });

  it('uses omni-moderation-latest when model is left out, and answers to the aliases', async () => {
    const explicit = await moderate('default model');
    // The SDK sends no `model` when it is not given.
    const defaulted = await stack().gateway.client.moderations.create({ input: 'default model' });
    expectSchema('CreateModerationResponse', defaulted);
    expect(defaulted.model).toBe('omni-moderation-latest');
    expectSameScores(defaulted.results[0], explicit.results[0], 0);
    const raw = await post(stack().gateway, '/v1/moderations', { input: 'default model' });
    expect((raw.body as OpenAI.ModerationCreateResponse).model).toBe('omni-moderation-latest');
    const legacy = await moderate('default model', 'text-moderation-latest');
    expect(legacy.model).toBe('text-moderation-latest');
    expectSameScores(legacy.results[0], explicit.results[0], 0);
  });

  it('scores the same text alike alone and inside a batch of many, concurrent or not', async () => {
    const text = 'the same words every time';
    const alone = (await moderate(text)).results[0];
    // 15 others of many lengths (up to past one window) and the text: the fixture model's
    // max_inputs (16) in one request, all of them padded into shared batches.
    const others = Array.from({ length: 15 }, (_, i) =>
      Array.from({ length: 1 + ((i * 11) % 80) }, (_, j) => `word${(i + j) % 50}`).join(' '),
    );
    const middle = 7;
    const batch = await moderate([...others.slice(0, middle), text, ...others.slice(middle)]);
    expectSameScores(batch.results[middle], alone);
    const concurrent = await Promise.all([
      ...others.map((other) => moderate(other)),
      moderate(text),
    ]);
    expectSameScores(concurrent[others.length].results[0], alone);
    others.forEach((_, i) => {
      expectSameScores(concurrent[i].results[0], batch.results[i < middle ? i : i + 1]);
    });
  });
});

describe('models as the models file configures them', () => {
  // tiny-toxic-bert's labels mapped by hand, with thresholds at the ends of the range, and a
  // second classifier (other labels) behind the same id, whose categories merge in.
  const modelsFile = temporaryModelsFile([
    'models:',
    '  - id: mapped',
    '    capability: moderation',
    `    source: ${JSON.stringify(fixtureModelDir('tiny-toxic-bert'))}`,
    '    options:',
    '      categories:',
    '        harassment: { labels: [insult], threshold: 0 }',
    '        hate: { labels: [identity_hate], threshold: 1 }',
    '        violence: { labels: [insult, identity_hate, threat] }',
    '      classifiers:',
    `        - source: ${JSON.stringify(fixtureModelDir('tiny-safety-cls'))}`,
    '          categories:',
    '            self-harm: { labels: [self_harm], threshold: 0 }',
    '            sexual: { labels: [sexual, sexual_minors], threshold: 1 }',
    '  - id: toxic-only',
    '    capability: moderation',
    `    source: ${JSON.stringify(fixtureModelDir('tiny-toxic-bert'))}`,
    '    options:',
    '      categories:',
    '        harassment: { labels: [insult] }',
    '        hate: { labels: [identity_hate] }',
    '        violence: { labels: [threat] }',
    '  - id: safety-only',
    '    capability: moderation',
    `    source: ${JSON.stringify(fixtureModelDir('tiny-safety-cls'))}`,
    '    options:',
    '      categories:',
    '        self-harm: { labels: [self_harm] }',
    '        sexual: { labels: [sexual] }',
    '        sexual/minors: { labels: [sexual_minors] }',
    // Every label of the toxicity classifier read out through a category of its own.
    '  - id: windowed',
    '    capability: moderation',
    `    source: ${JSON.stringify(fixtureModelDir('tiny-toxic-bert'))}`,
    '    options:',
    `      window_overlap_tokens: ${WINDOW_OVERLAP}`,
    '      max_windows_per_input: 8',
    '      categories:',
    '        harassment: { labels: [insult] }',
    '        harassment/threatening: { labels: [threat] }',
    '        hate: { labels: [identity_hate] }',
    '        sexual: { labels: [obscene] }',
    '        violence: { labels: [toxic] }',
    '        violence/graphic: { labels: [severe_toxic] }',
  ]);
  let mapped: Awaited<ReturnType<typeof startModerationStack>>;
  beforeAll(async () => {
    mapped = await startModerationStack(modelsFile);
  }, 120_000);
  afterAll(() => mapped?.close());

  const classify = async (model: string, input: string[]) => {
    const response = await mapped.gateway.client.moderations.create({ model, input });
    expectSchema('CreateModerationResponse', response);
    return response.results;
  };

  it('scores each category as the max of its labels, merging the classifiers', async () => {
    const texts = ['you are awful', 'a quiet walk in the park', 'i feel so alone tonight'];
    const results = await classify('mapped', texts);
    const toxic = await classify('toxic-only', texts);
    const safety = await classify('safety-only', texts);
    results.forEach((result, i) => {
      const scores = scoresOf(result);
      // Labels read through single-label maps of the same classifiers.
      const insult = scoresOf(toxic[i]).harassment;
      const identityHate = scoresOf(toxic[i]).hate;
      const threat = scoresOf(toxic[i]).violence;
      expect(scores.harassment).toBeCloseTo(insult, 6);
      expect(scores.hate).toBeCloseTo(identityHate, 6);
      expect(scores.violence).toBeCloseTo(Math.max(insult, identityHate, threat), 6);
      expect(scores['self-harm']).toBeCloseTo(scoresOf(safety[i])['self-harm'], 6);
      const sexual = Math.max(scoresOf(safety[i]).sexual, scoresOf(safety[i])['sexual/minors']);
      expect(scores.sexual).toBeCloseTo(sexual, 6);
    });
  });

  it('flags a category at its threshold (default 0.5) and the result when any is flagged', async () => {
    const results = await classify('mapped', ['you are awful', 'a quiet walk in the park']);
    for (const result of results) {
      const flags = flagsOf(result);
      const scores = scoresOf(result);
      expect(flags.harassment).toBe(true); // threshold 0
      expect(flags['self-harm']).toBe(true); // threshold 0
      expect(flags.hate).toBe(scores.hate >= 1); // threshold 1
      expect(flags.sexual).toBe(scores.sexual >= 1);
      expect(flags.violence).toBe(scores.violence >= 0.5); // the default
      expect(result.flagged).toBe(true);
    }
  });

  it('scores an uncovered category 0, never flags it, and lists it in GET /v1/models', async () => {
    const [result] = await classify('mapped', ['anything at all']);
    const covered = ['harassment', 'hate', 'violence', 'self-harm', 'sexual'];
    const uncovered = MODERATION_CATEGORIES.filter((c) => !covered.includes(c));
    for (const category of uncovered) {
      expect(scoresOf(result)[category]).toBe(0);
      expect(flagsOf(result)[category]).toBe(false);
      expect(appliedOf(result)[category]).toEqual([]);
    }
    for (const category of covered) expect(appliedOf(result)[category]).toEqual(['text']);
    const model = (await mapped.gateway.client.models.retrieve('mapped')) as unknown as {
      uncovered_categories: string[];
    };
    expect([...model.uncovered_categories].sort()).toEqual([...uncovered].sort());
  });

  it('scores a text longer than the model as the max over its windows, the last one included', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained(fixtureModelDir('tiny-toxic-bert'), {
      local_files_only: true,
    });
    const encode = (text: string) =>
      Array.from(tokenizer.encode(text, { add_special_tokens: false })) as number[];
    const config = JSON.parse(
      fs.readFileSync(`${fixtureModelDir('tiny-toxic-bert')}/config.json`, 'utf8'),
    ) as {
      max_position_embeddings: number;
    };
    // The service's windows: [CLS] + `body` tokens + [SEP], each `stride` after the last.
    const body = config.max_position_embeddings - 2;
    const overlap = WINDOW_OVERLAP;
    const stride = Math.max(1, body - Math.min(overlap, body - 1));
    const windowsAfterFirst = 3;
    const length = body + windowsAfterFirst * stride;
    // Words that are one token each, so that a window's text encodes to the window's tokens.
    const filler = 'the cat sat on a mat and we went home after dark'.split(' ');
    expect(filler.every((word) => encode(word).length === 1)).toBe(true);
    const tails = [
      'you are a stupid idiot and i hate you',
      'i will hurt you badly',
      'what a lovely day it is',
    ];
    // The length is chosen so that the last window ends exactly at the text's end: then it is
    // the same window whether the last one is cut short or aligned to the end.
    const textOf = (tail: string) => {
      const tailTokens = encode(tail);
      const words = Array.from(
        { length: length - tailTokens.length },
        (_, i) => filler[i % filler.length],
      );
      return {
        text: `${words.join(' ')} ${tail}`,
        ids: [...encode(words.join(' ')), ...tailTokens],
      };
    };
    let checked = 0;
    for (const tail of tails) {
      const { text, ids } = textOf(tail);
      expect(encode(text)).toEqual(ids);
      expect(ids).toHaveLength(length);
      const windows = Array.from({ length: windowsAfterFirst + 1 }, (_, i) => {
        const slice = ids.slice(i * stride, i * stride + body);
        const windowText = tokenizer.decode(slice, { skip_special_tokens: true }) as string;
        expect(encode(windowText)).toEqual(slice);
        return windowText;
      });
      const [long, ...byWindow] = await classify('windowed', [text, ...windows]);
      for (const category of MODERATION_CATEGORIES) {
        const best = Math.max(...byWindow.map((w) => scoresOf(w)[category]));
        expect(Math.abs(scoresOf(long)[category] - best)).toBeLessThanOrEqual(1e-6);
        expect(flagsOf(long)[category]).toBe(byWindow.some((w) => flagsOf(w)[category]));
      }
      // Where the window holding the tail scores above every other window, the long text's
      // score is that window's: the end of the text was read, not cut off.
      const last = byWindow[windowsAfterFirst];
      const earlier = byWindow.slice(0, windowsAfterFirst);
      for (const category of MODERATION_CATEGORIES) {
        if (earlier.every((w) => scoresOf(w)[category] < scoresOf(last)[category] - 1e-4)) {
          expect(scoresOf(long)[category]).toBeCloseTo(scoresOf(last)[category], 6);
          expect(scoresOf(long)[category]).toBeGreaterThan(scoresOf(earlier[0])[category]);
          checked++;
        }
      }
    }
    // Some tail out-scored the text before it somewhere, or this test would prove nothing.
    expect(checked).toBeGreaterThan(0);
  });
});
