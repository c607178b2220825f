// The Classify handler's own checks and its assembly of results, over a stand-in for the loaded
// models (the real engine and service run end to end in test/moderation*.e2e-spec.ts, where the
// gateway refuses most bad input before it reaches the service).
import { INVALID_SPAN_CONTEXT, trace } from '@opentelemetry/api';
import { GrpcStatusError, type ClassifyRequest__Output } from '@tessera/contracts';
import { resolveCategoryMap, CategoryMapSchema, type ClassifierOutcome } from '@tessera/encoder';
import { ClassifyHandler } from './classify.handler';
import type { ModerationModel, ModerationModels } from './moderation-models';

const LABELS = ['insult', 'threat'];
const rules = resolveCategoryMap(
  CategoryMapSchema.parse({
    harassment: { labels: ['insult'] },
    violence: { labels: ['threat'], threshold: 0.9 },
  }),
  LABELS,
  'test',
);

/** A model whose one classifier scores a text by its words (insult, threat). */
function standIn(): { models: ModerationModels; classified: string[][] } {
  const classified: string[][] = [];
  const model = {
    spec: { id: 'guard' },
    maxInputs: 3,
    uncoveredCategories: [],
    classifiers: [
      {
        rules,
        model: {
          refuseEarly: (texts: readonly string[]) => {
            const index = texts.findIndex((text) => text.length > 1000);
            return index < 0 ? undefined : { index, characters: texts[index].length };
          },
          windowing: { maxTokens: 64, maxWindows: 4 },
          maxTextTokens: 200,
        },
      },
    ],
  } as unknown as ModerationModel;
  const models = {
    find: (name: string) => (name === 'guard' ? model : undefined),
    classify: async (_: ModerationModel, texts: readonly string[]) => {
      classified.push([...texts]);
      return [
        texts.map((text): ClassifierOutcome =>
          text.includes('endless')
            ? { tokens: 300, rejection: { reason: 'too_long' } }
            : {
                tokens: 4,
                windows: 1,
                scores: Float64Array.from([
                  text.includes('idiot') ? 0.8 : 0.1,
                  text.includes('hurt') ? 0.95 : 0.2,
                ]),
              },
        ),
      ];
    },
  } as unknown as ModerationModels;
  return { models, classified };
}

const text = (value: string) => ({ parts: [{ kind: 'text' as const, text: value }] });
const request = (items: ClassifyRequest__Output['items'], model = 'guard') =>
  ({ model, items }) as ClassifyRequest__Output;
const context = { span: trace.wrapSpanContext(INVALID_SPAN_CONTEXT) };

async function refusal(promise: Promise<unknown>): Promise<GrpcStatusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrpcStatusError);
  return error as GrpcStatusError;
}

describe('ClassifyHandler', () => {
  it('answers one result per input, in order, all 13 categories mapped', async () => {
    const { models, classified } = standIn();
    const handler = new ClassifyHandler(models);
    const response = await handler.classify(
      request([text('you idiot'), text('hello'), text('I will hurt you')]),
      context,
    );
    expect(classified).toEqual([['you idiot', 'hello', 'I will hurt you']]);
    expect(response.model).toBe('guard');
    const flagged = response.results!.map((result) =>
      result.categories!.filter((c) => c.flagged).map((c) => c.category),
    );
    expect(flagged).toEqual([['harassment'], [], ['violence']]);
    expect(response.results!.map((result) => result.flagged)).toEqual([true, false, true]);
    expect(response.results!.every((result) => result.categories!.length === 13)).toBe(true);
  });

  it('joins the text parts of one multimodal input', async () => {
    const { models, classified } = standIn();
    const parts = [
      { kind: 'text' as const, text: 'first' },
      { kind: 'text' as const, text: 'second' },
    ];
    await new ClassifyHandler(models).classify(request([{ parts }]), context);
    expect(classified).toEqual([['first\nsecond']]);
  });

  it.each([
    ['an unknown model', request([text('a')], 'nope'), 'model', 'model_not_found'],
    ['no input', request([]), 'input', null],
    ['too many inputs', request([text('a'), text('b'), text('c'), text('d')]), 'input', null],
    ['an empty string in an array', request([text('a'), text('')]), 'input[1]', null],
    [
      'an image part',
      request([
        {
          parts: [
            { kind: 'text', text: 'a' },
            { kind: 'image', image: null },
          ],
        },
      ]),
      'input[1]',
      null,
    ],
    [
      'a text too long to tokenize',
      request([text('x'.repeat(1001))]),
      'input',
      'context_length_exceeded',
    ],
    [
      'a text needing too many windows',
      request([text('fine'), text('endless')]),
      'input[1]',
      'context_length_exceeded',
    ],
  ])('refuses %s, naming %s, before answering', async (_, body, param, code) => {
    const { models } = standIn();
    const error = await refusal(new ClassifyHandler(models).classify(body, context));
    expect(error.details).toMatchObject({ param, code });
  });
});
