// The vision-language path end to end through real worker threads on tiny-smolvlm: image parts
// preprocessed on the image worker, the template's <image> markers expanded, the vision
// encoder's features spliced into the image tokens at prefill, decode steps through
// embed_tokens. Greedy output and prompt length must equal transformers' generate on the
// PyTorch weights (image_reference.json, recorded by tools/fixtures).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueueFullError } from '@tessera/runtime';
import { pngHeaderOnly } from '@tessera/testing';
import {
  ContextLengthExceededError,
  ImageDecodeError,
  ImageTooLargeError,
} from '../decoder.errors';
import { DecoderModel } from '../decoder.model';
import type { ChatGeneration, GenerationEvent } from '../decoder.protocol';
import type { ImageDetail, PromptContentPart } from '@tessera/text';
import { DEFAULT_SAMPLING_OPTIONS } from '../sampling';

const MODEL = join(__dirname, '../../../../test/fixtures/models/tiny-smolvlm');

interface GreedyCase {
  images: string[];
  detail: ImageDetail;
  text: string;
  prompt_tokens: number;
  image_tokens: number;
  output_ids: number[];
  output_text: string;
}

const reference = JSON.parse(readFileSync(join(MODEL, 'image_reference.json'), 'utf8')) as {
  greedy: { max_new_tokens: number; cases: GreedyCase[] };
  cases: { image: string; detail: ImageDetail; prompt_tokens: number }[];
};

/** The Python processor's prompt length for one image at one detail (same text around it). */
function pythonPromptTokens(image: string, detail: ImageDetail): number {
  const found = reference.cases.find((c) => c.image === image && c.detail === detail);
  if (!found) throw new Error(`no reference for ${image} ${detail}`);
  return found.prompt_tokens;
}

function imagePart(name: string, detail: ImageDetail): PromptContentPart {
  const data = new Uint8Array(readFileSync(join(MODEL, 'images', name)));
  return { type: 'image', image: { data, mimeType: 'application/octet-stream', detail } };
}

function generation(parts: PromptContentPart[], maxTokens: number): ChatGeneration {
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  return {
    messages: [{ role: 'user', content: text, parts }],
    sampling: { ...DEFAULT_SAMPLING_OPTIONS, temperature: 0 },
    n: 1,
    maxTokens,
    stop: [],
    logprobs: false,
    topLogprobs: 0,
  };
}

/** A png header stating `side` × `side` pixels and no pixel data: decoding it fails. */
function headerOnlyPart(side: number, detail: ImageDetail): PromptContentPart {
  return {
    type: 'image',
    image: { data: new Uint8Array(pngHeaderOnly(side, side)), mimeType: 'image/png', detail },
  };
}

/** The error reading the stream ends with (undefined when it completes). */
async function failure(stream: AsyncIterable<GenerationEvent>): Promise<unknown> {
  try {
    for await (const event of stream) void event;
  } catch (error) {
    return error;
  }
  return undefined;
}

async function run(model: DecoderModel, request: ChatGeneration) {
  const stream = model.generate(request);
  const events: GenerationEvent[] = [];
  for await (const event of stream) events.push(event);
  const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
  const last = events.at(-1);
  if (last?.type !== 'finish' || !last.usage) throw new Error('the stream did not end with usage');
  return { text, events, usage: last.usage };
}

describe('DecoderModel on a vision-language model (tiny-smolvlm)', () => {
  let model: DecoderModel;

  beforeAll(async () => {
    model = await DecoderModel.load({ modelDir: MODEL, options: { max_sequences: 4 } });
  }, 60_000);
  afterAll(() => model.close());

  it('reports vision', () => {
    expect(model.info.vision).toBe(true);
    expect(model.info.eosTokenIds).toEqual([49279]);
  });

  it.each(reference.greedy.cases.map((c) => [c.images.join(' + '), c.detail, c] as const))(
    'greedy on %s (detail %s) equals transformers generate',
    async (_images, detail, expected) => {
      const parts = [
        ...expected.images.map((name) => imagePart(name, detail)),
        { type: 'text' as const, text: expected.text },
      ];
      const { text, usage } = await run(model, generation(parts, reference.greedy.max_new_tokens));
      expect(usage.promptTokens).toBe(expected.prompt_tokens);
      expect(usage.completionTokens).toBe(expected.output_ids.length);
      expect(text).toBe(expected.output_text);
    },
    120_000,
  );

  it('counts the image tokens of each detail as the Python processor does', async () => {
    const tokens = async (detail: ImageDetail) =>
      (
        await run(
          model,
          generation([imagePart('landscape.png', detail), { type: 'text', text: 'Hi' }], 1),
        )
      ).usage.promptTokens;
    const [low, high] = [await tokens('low'), await tokens('high')];
    // low: one 512 tile (64 image tokens); high: 4 × 3 tiles and the global one (13 × 64) with
    // their row/column markers. The text around the image is the same, so differences compare.
    expect(high - low).toBe(
      pythonPromptTokens('landscape.png', 'high') - pythonPromptTokens('landscape.png', 'low'),
    );
    expect(high - low).toBeGreaterThan(12 * 64);
  }, 120_000);

  it('gives n choices from one prefill and keeps requests apart in the batch', async () => {
    const [expected] = reference.greedy.cases;
    const parts = (): PromptContentPart[] => [
      imagePart(expected.images[0], expected.detail),
      { type: 'text', text: expected.text },
    ];
    const twoChoices = run(model, { ...generation(parts(), expected.output_ids.length), n: 2 });
    // A text-only request and a second image request decoding in the same batch.
    const text = run(model, generation([{ type: 'text', text: 'Tell me more' }], 12));
    const again = run(model, generation(parts(), expected.output_ids.length));
    const [both, , alone] = await Promise.all([twoChoices, text, again]);
    const perChoice = [0, 1].map((choice) =>
      both.events.map((e) => (e.type === 'delta' && e.choice === choice ? e.text : '')).join(''),
    );
    expect(perChoice).toEqual([expected.output_text, expected.output_text]);
    expect(alone.text).toBe(expected.output_text);
    expect(both.usage.promptTokens).toBe(expected.prompt_tokens);
  }, 120_000);

  it('answers a text-only conversation (the template takes content parts)', async () => {
    const { usage } = await run(model, generation([{ type: 'text', text: 'Hello there' }], 4));
    expect(usage.completionTokens).toBeGreaterThan(0);
  });

  it('refuses bytes that are not an image, naming the part', async () => {
    const bad: PromptContentPart = {
      type: 'image',
      image: {
        data: new TextEncoder().encode('not an image'),
        mimeType: 'image/png',
        detail: 'auto',
      },
    };
    const stream = model.generate(generation([{ type: 'text', text: 'look' }, bad], 4));
    const failure = (async () => {
      for await (const event of stream) void event;
    })();
    await expect(failure).rejects.toBeInstanceOf(ImageDecodeError);
    await expect(failure).rejects.toMatchObject({ param: 'messages[0].content[1].image_url' });
  });

  it('refuses from the headers what cannot fit the context, decoding no image', async () => {
    // Eight images of 2048 × 2048 (33.6 Mpx in all, within the pixel bound) are 4 × 4 tiles and
    // the global one each: 8 × 17 × 64 image tokens, past the 8192 of the context. Their pngs
    // have no pixel data: decoding any of them would fail, so the refusal shows that none was.
    const parts = Array.from({ length: 8 }, () => headerOnlyPart(2048, 'auto'));
    const error = await failure(
      model.generate(generation([...parts, { type: 'text', text: 'Compare them' }], 16)),
    );
    expect(error).toBeInstanceOf(ContextLengthExceededError);
    expect(error).toMatchObject({ contextLength: 8192 });
    expect((error as ContextLengthExceededError).promptTokens).toBeGreaterThan(8 * 17 * 64);
  });

  it("refuses images whose pixels together pass the model's bound, before decoding", async () => {
    // At detail low they fit the context (64 image tokens each); 2 × 47.6 Mpx pass 64 Mpx.
    const parts = Array.from({ length: 8 }, () => headerOnlyPart(6900, 'low'));
    const error = await failure(
      model.generate(generation([{ type: 'text', text: 'look' }, ...parts], 4)),
    );
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect(error).toMatchObject({
      param: 'messages[0].content[2].image_url',
      message: expect.stringContaining('at most 64000000 pixels per request'),
    });
  });
});

describe('a vision model with room for one image in flight', () => {
  let model: DecoderModel;

  beforeAll(async () => {
    model = await DecoderModel.load({
      modelDir: MODEL,
      options: { max_sequences: 4, max_images_in_flight: 1 },
    });
  }, 60_000);
  afterAll(() => model.close());

  const ask = () =>
    model.generate(generation([imagePart('small.gif', 'low'), { type: 'text', text: 'Hi' }], 2));

  it('refuses a second image request while the first holds its image, then serves again', async () => {
    const first = ask();
    // The first request's image was admitted when it was asked for; it is held until the prompt
    // is prefilled, so the second is refused at once (the service answers it 429).
    expect(await failure(ask())).toBeInstanceOf(QueueFullError);
    expect(await failure(first)).toBeUndefined();
    expect(await failure(ask())).toBeUndefined();
  }, 60_000);

  it('lets go of the images of a request that failed', async () => {
    const truncated = readFileSync(join(MODEL, 'images', 'landscape.png')).subarray(0, 200);
    const broken: PromptContentPart = {
      type: 'image',
      image: { data: new Uint8Array(truncated), mimeType: 'image/png', detail: 'low' },
    };
    // The header states a size, so the image is admitted; its decoding fails.
    const error = await failure(model.generate(generation([broken], 2)));
    expect(error).toBeInstanceOf(ImageDecodeError);
    expect(await failure(ask())).toBeUndefined();
  }, 60_000);
});
