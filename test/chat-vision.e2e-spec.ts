// Images end to end with the official openai SDK: data: URLs through the real gateway (which
// decodes them into bytes) to the real chat service running tiny-smolvlm (a random-weight
// SmolVLM in transformers.js's three-graph layout) on ONNX Runtime. Greedy answers and prompt
// lengths must equal what transformers' generate gives on the PyTorch weights for the same
// conversation (image_reference.json, recorded by tools/fixtures): the image preprocessing, the
// image-token expansion, the splice of the vision features and the decoding all have to be right.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type OpenAI from 'openai';
import { DEFAULT_IMAGE_INPUTS } from '@tessera/config';
import { blankPng, pngHeaderOnly, startImageServer, type ImageServer } from '@tessera/testing';
import { useChatStack } from './support/chat-stack';
import { expectOpenAIError } from './support/openai-error.expect';
import { plainTextIds } from '../libs/text/test/plain-text.ids';
import { expectSchema } from './support/openai-schemas';

const VLM = 'tiny-smolvlm';
const FIXTURE = join(__dirname, 'fixtures/models/tiny-smolvlm');
const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

type Detail = 'auto' | 'low' | 'high';

interface Reference {
  greedy: {
    max_new_tokens: number;
    cases: {
      images: string[];
      detail: Detail;
      text: string;
      prompt_tokens: number;
      output_ids: number[];
      output_text: string;
    }[];
  };
  cases: { image: string; detail: Detail; prompt_tokens: number }[];
}

const reference = JSON.parse(
  readFileSync(join(FIXTURE, 'image_reference.json'), 'utf8'),
) as Reference;

function dataUrl(name: string): string {
  const bytes = readFileSync(join(FIXTURE, 'images', name));
  return `data:${MIME[name.split('.').pop() as string]};base64,${bytes.toString('base64')}`;
}

function imagePart(name: string, detail: Detail): OpenAI.ChatCompletionContentPartImage {
  return { type: 'image_url', image_url: { url: dataUrl(name), detail } };
}

// 127.0.0.2 is loopback, fetched from only because it is on the allow-list.
const IMAGE_HOST = '127.0.0.2';
const stack = useChatStack(undefined, {
  images: { ...DEFAULT_IMAGE_INPUTS, fetchAllow: [IMAGE_HOST] },
});
let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer(IMAGE_HOST);
});
afterAll(() => images?.close());
const client = () => stack().gateway.client;

describe('image input (tiny-smolvlm)', () => {
  it("lists 'vision' beside 'chat' for the VLM only", async () => {
    const response = await fetch(`${stack().gateway.url}/v1/models`, {
      headers: { authorization: 'Bearer tsk-test-key' },
    });
    const { data } = (await response.json()) as { data: { id: string; capabilities: string[] }[] };
    const capabilities = new Map(data.map((model) => [model.id, model.capabilities]));
    expect(capabilities.get(VLM)).toEqual(['chat', 'vision']);
    expect(capabilities.get('tiny-llama')).toEqual(['chat']);
  });

  it.each(reference.greedy.cases.map((c) => [c.images.join(' + '), c.detail, c] as const))(
    'answers about %s (detail %s) as transformers does, counting the image tokens',
    async (_images, detail, expected) => {
      const completion = await client().chat.completions.create({
        model: VLM,
        temperature: 0,
        max_tokens: reference.greedy.max_new_tokens,
        messages: [
          {
            role: 'user',
            content: [
              ...expected.images.map((name) => imagePart(name, detail)),
              { type: 'text', text: expected.text },
            ],
          },
        ],
      });
      expectSchema('CreateChatCompletionResponse', completion);
      expect(completion.usage?.prompt_tokens).toBe(expected.prompt_tokens);
      expect(completion.usage?.completion_tokens).toBe(expected.output_ids.length);
      expect(completion.choices[0].message.content).toBe(expected.output_text);
    },
    120_000,
  );

  it('answers about an http URL (a local server on the allow-list) as about the same bytes inline', async () => {
    const ask = async (url: string) =>
      client().chat.completions.create({
        model: VLM,
        temperature: 0,
        max_tokens: 6,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Describe' },
              { type: 'image_url', image_url: { url, detail: 'high' } },
            ],
          },
        ],
      });
    const fetched = await ask(images.url('/image.png'));
    const inline = await ask(`data:image/png;base64,${images.png.toString('base64')}`);
    expect(images.hits.get('/image.png')).toBe(1);
    expectSchema('CreateChatCompletionResponse', fetched);
    // A 16×16 picture becomes a 2048×2048 one: 4 × 4 tiles and the global one.
    expect(fetched.usage?.prompt_tokens).toBeGreaterThan(17 * 64);
    expect(fetched.usage?.prompt_tokens).toBe(inline.usage?.prompt_tokens);
    expect(fetched.choices[0].message.content).toBe(inline.choices[0].message.content);
  }, 120_000);

  it('streams an answer about an image', async () => {
    const [expected] = reference.greedy.cases;
    const stream = await client().chat.completions.create({
      model: VLM,
      temperature: 0,
      max_tokens: reference.greedy.max_new_tokens,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        {
          role: 'user',
          content: [
            imagePart(expected.images[0], expected.detail),
            { type: 'text', text: expected.text },
          ],
        },
      ],
    });
    let content = '';
    let promptTokens: number | undefined;
    for await (const chunk of stream) {
      expectSchema('CreateChatCompletionStreamResponse', chunk);
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) promptTokens = chunk.usage.prompt_tokens;
    }
    expect(content).toBe(expected.output_text);
    expect(promptTokens).toBe(expected.prompt_tokens);
  }, 120_000);

  it('counts more image tokens for detail high than low, as the Python processor does', async () => {
    const promptTokens = async (image: string, detail: Detail) => {
      const completion = await client().chat.completions.create({
        model: VLM,
        max_tokens: 1,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }, imagePart(image, detail)] },
        ],
      });
      return completion.usage?.prompt_tokens as number;
    };
    const python = (image: string, detail: Detail) =>
      reference.cases.find((c) => c.image === image && c.detail === detail)
        ?.prompt_tokens as number;
    for (const image of ['square.webp', 'small.gif']) {
      const low = await promptTokens(image, 'low');
      const high = await promptTokens(image, 'high');
      const auto = await promptTokens(image, 'auto');
      expect(high - low).toBe(python(image, 'high') - python(image, 'low'));
      expect(auto).toBe(high);
    }
  }, 120_000);

  it('reads <image> written in the text as text, not as a placeholder of the image', async () => {
    // Before: a 400, the template's placeholders no longer matching the image parts.
    const promptTokens = async (text: string): Promise<number> => {
      const completion = await client().chat.completions.create({
        model: VLM,
        max_tokens: 1,
        messages: [
          { role: 'user', content: [imagePart('small.gif', 'low'), { type: 'text', text }] },
        ],
      });
      return completion.usage!.prompt_tokens;
    };
    const plain = await plainTextIds(FIXTURE);
    const typed = 'Is <image> the picture?';
    const without = 'Is the picture?';
    expect((await promptTokens(typed)) - (await promptTokens(without))).toBe(
      plain(typed).length - plain(without).length,
    );
  }, 120_000);

  it('refuses an image sent to a model without vision, naming the part', async () => {
    const error = await client()
      .chat.completions.create({
        model: 'tiny-llama',
        max_tokens: 1,
        messages: [
          {
            role: 'user',
            content: [{ type: 'text', text: 'look' }, imagePart('small.gif', 'low')],
          },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e as { status: number; error: unknown },
      );
    expect(error?.status).toBe(400);
    expect(error?.error).toEqual({
      message: "The model 'tiny-llama' does not accept images; send text content parts only.",
      type: 'invalid_request_error',
      param: 'messages[0].content[1]',
      code: 'image_not_supported',
    });
  });

  it('refuses an image the processor cannot decode (a truncated png), naming the part', async () => {
    // The png signature passes the gateway's magic-byte check; the bytes stop mid-file.
    const truncated = readFileSync(join(FIXTURE, 'images', 'landscape.png')).subarray(0, 200);
    const error = await client()
      .chat.completions.create({
        model: VLM,
        max_tokens: 1,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              {
                type: 'image_url',
                image_url: { url: `data:image/png;base64,${truncated.toString('base64')}` },
              },
            ],
          },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e as { status: number; error: { param: string; code: string } },
      );
    expect(error?.status).toBe(400);
    expect(error?.error).toMatchObject({
      param: 'messages[0].content[1].image_url',
      code: 'invalid_image',
    });
  });

  /** The 400 a request with these png parts (after a text part) gets, as status and body. */
  const refusal = async (pngs: Buffer[], detail: Detail = 'auto') => {
    const error = await client()
      .chat.completions.create({
        model: VLM,
        max_tokens: 16,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare these' },
              ...pngs.map((png) => ({
                type: 'image_url' as const,
                image_url: { url: `data:image/png;base64,${png.toString('base64')}`, detail },
              })),
            ],
          },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e as { status: number; error: unknown },
      );
    return { status: error?.status ?? 200, body: { error: error?.error } };
  };

  it('refuses images that cannot fit the context from their headers, decoding none', async () => {
    // Eight 2048 × 2048 images are 8 × 17 tiles of 64 image tokens: past tiny-smolvlm's 8192.
    // Their pngs end after the header (no pixel data): had any been decoded, the answer would
    // be invalid_image.
    const header = pngHeaderOnly(2048, 2048);
    expectOpenAIError(await refusal(Array.from({ length: 8 }, () => header)), 400, {
      param: 'messages',
      code: 'context_length_exceeded',
      message: /maximum context length is 8192 tokens/,
    });
  });

  it("refuses eight 6900 × 6900 pngs (46 KB each) at once by the model's pixel bound", async () => {
    // Just under the 48 Mpx cap each: decoding and tiling all eight took 34 s before the
    // context check refused them. Now the second one passes max_image_pixels_per_request
    // (64 Mpx) from its header, before anything is decoded; the same at detail low, where the
    // image tokens would fit the context.
    const blank = blankPng(6900, 6900);
    for (const detail of ['auto', 'low'] as const) {
      expectOpenAIError(
        await refusal(
          Array.from({ length: 8 }, () => blank),
          detail,
        ),
        400,
        {
          param: 'messages[0].content[2].image_url',
          code: 'invalid_image',
          message: /at most 64000000 pixels per request/,
        },
      );
    }
  });
});
