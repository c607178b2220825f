// Image URLs end to end: the real gateway fetches them (or refuses to) before the chat service
// is called, over real HTTP from local servers. The allowed server listens on 127.0.0.2, the one
// address on the allow-list; the same routes on 127.0.0.1 (and `localhost`) are loopback and
// refused. Every refusal is a 400 naming the part, and the refused server never sees a request.
// An image that went through reaches the chat service: the vision fixture (tiny-smolvlm) answers
// it, and the text-only one refuses it with its own 400 (`image_not_supported`), which the
// gateway's refusals never are.
import OpenAI from 'openai';
import { DEFAULT_IMAGE_INPUTS } from '@tessera/config';
import { startImageServer, type ImageServer } from '@tessera/testing';
import { CHAT_MODEL, postSse, useChatStack } from './support/chat-stack';
import { expectSchema } from './support/openai-schemas';
import { post } from './support/test-stack';

const ALLOWED_HOST = '127.0.0.2';
const MAX_BYTES = 64 * 1024;

const stack = useChatStack(undefined, {
  images: {
    ...DEFAULT_IMAGE_INPUTS,
    fetchAllow: [ALLOWED_HOST],
    fetchTimeoutMs: 1_000,
    maxBytes: MAX_BYTES,
  },
});

let allowed: ImageServer;
let loopback: ImageServer;
beforeAll(async () => {
  allowed = await startImageServer(ALLOWED_HOST);
  loopback = await startImageServer('127.0.0.1');
});
afterAll(async () => {
  await allowed?.close();
  await loopback?.close();
});
beforeEach(() => {
  allowed.hits.clear();
  loopback.hits.clear();
});

const PARAM = 'messages[0].content[1].image_url';
const withImage = (url: string) => ({
  model: CHAT_MODEL,
  max_tokens: 4,
  messages: [
    {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'What is in this image?' },
        { type: 'image_url' as const, image_url: { url } },
      ],
    },
  ],
});

/** The OpenAI error body the SDK raised for a request with this image URL. */
async function errorFor(url: string) {
  const error = await stack()
    .gateway.client.chat.completions.create(withImage(url))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  return (error as InstanceType<typeof OpenAI.BadRequestError>).error as Record<string, unknown>;
}

const refusal = (message: string | RegExp, code = 'invalid_image_url') => ({
  message:
    typeof message === 'string' ? `Invalid '${PARAM}': ${message}` : expect.stringMatching(message),
  type: 'invalid_request_error',
  param: PARAM,
  code,
});

const NOT_FETCHED = 'which this server does not fetch images from.';

const VISION_MODEL = 'tiny-smolvlm';

describe('image URLs the gateway reads', () => {
  it('fetches an allowed http URL; the vision model answers on the same bytes as a data: URL', async () => {
    const { client } = stack().gateway;
    const ask = (url: string) =>
      client.chat.completions.create({ ...withImage(url), model: VISION_MODEL, temperature: 0 });
    const fetched = await ask(allowed.url('/image.png'));
    const inline = await ask(`data:image/png;base64,${allowed.png.toString('base64')}`);
    expect(allowed.hits.get('/image.png')).toBe(1);
    expect(fetched.choices[0]!.message.content).toEqual(expect.any(String));
    // Greedy on the same image: the same prompt (image tokens counted) and the same answer.
    expect(fetched.usage).toEqual(inline.usage);
    expect(fetched.choices[0]!.message.content).toBe(inline.choices[0]!.message.content);
    const textOnly = await client.chat.completions.create({
      model: VISION_MODEL,
      max_tokens: 4,
      messages: [{ role: 'user', content: 'What is in this image?' }],
    });
    expect(fetched.usage!.prompt_tokens).toBeGreaterThan(textOnly.usage!.prompt_tokens + 16);
  });

  it('hands an allowed http URL to a text-only model, which refuses it itself', async () => {
    const error = await errorFor(allowed.url('/image.png'));
    expect(error).toEqual({
      message: `The model '${CHAT_MODEL}' does not accept images; send text content parts only.`,
      type: 'invalid_request_error',
      param: 'messages[0].content[1]',
      code: 'image_not_supported',
    });
    expect(allowed.hits.get('/image.png')).toBe(1);
  });

  it('decodes a data: URL holding a real png and hands it on the same way', async () => {
    const url = `data:image/png;base64,${allowed.png.toString('base64')}`;
    expect((await errorFor(url)).code).toBe('image_not_supported');
  });
});

describe('image URLs the gateway refuses, with a 400 naming the part', () => {
  it('a loopback address, by IP, by IPv4-mapped IPv6 and by the name localhost', async () => {
    const port = loopback.port;
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::1]', 'localhost']) {
      const url = `http://${host}:${port}/image.png`;
      // Named as the WHATWG URL parser writes it ([::ffff:7f00:1]).
      const shown = new URL(url).href;
      expect(await errorFor(url)).toEqual(
        refusal(`cannot fetch ${shown}: it resolves to a loopback address, ${NOT_FETCHED}`),
      );
    }
    expect(loopback.hits.size).toBe(0);
  });

  it.each([
    ['http://10.1.2.3/a.png', 'a private'],
    ['http://192.168.0.10/a.png', 'a private'],
    ['http://172.20.0.1/a.png', 'a private'],
    ['http://[fd12::1]/a.png', 'a private'],
    ['http://169.254.10.10/a.png', 'a link-local'],
    ['http://[fe80::1]/a.png', 'a link-local'],
    ['http://100.64.1.1/a.png', 'a carrier-grade NAT'],
    ['http://0.0.0.0/a.png', 'an unspecified'],
    ['http://224.0.0.1/a.png', 'a multicast'],
  ])('%s (%s address)', async (url, kind) => {
    expect(await errorFor(url)).toEqual(
      refusal(`cannot fetch ${url}: it resolves to ${kind} address, ${NOT_FETCHED}`),
    );
  });

  it('the cloud metadata service, by address and by name, before any connection or lookup', async () => {
    // There is no DNS here: a lookup of the name would have failed as "could not be resolved".
    for (const url of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
    ]) {
      expect(await errorFor(url)).toEqual(
        refusal(`cannot fetch ${url}: it resolves to a cloud metadata address, ${NOT_FETCHED}`),
      );
    }
  });

  it('a redirect from an allowed host to a loopback one', async () => {
    const target = loopback.url('/image.png');
    const from = allowed.url(`/redirect?to=${encodeURIComponent(target)}`);
    expect(await errorFor(from)).toEqual(
      refusal(
        `cannot fetch ${target} (redirected from ${from}): it resolves to a loopback address, ` +
          NOT_FETCHED,
      ),
    );
    expect(allowed.hits.get('/redirect')).toBe(1);
    expect(loopback.hits.size).toBe(0);
  });

  it('too many redirects', async () => {
    expect(await errorFor(allowed.url('/loop/0'))).toEqual(
      refusal(
        /^Invalid '.*': cannot fetch .*\/loop\/3 \(redirected from .*\/loop\/0\): too many redirects \(more than 3\)\.$/,
      ),
    );
    expect(allowed.hits.get('/loop/3')).toBe(1);
    expect(allowed.hits.has('/loop/4')).toBe(false);
  });

  it('an image larger than the cap, with or without a Content-Length', async () => {
    for (const path of ['/big?bytes=70000', '/endless']) {
      const url = allowed.url(path);
      expect(await errorFor(url)).toEqual(
        refusal(`cannot fetch ${url}: the image is larger than 65536 bytes.`, 'invalid_image'),
      );
    }
  });

  it('a response that is not an image', async () => {
    const url = allowed.url('/page.html');
    expect(await errorFor(url)).toEqual(
      refusal(
        `cannot fetch ${url}: it is not an image (content-type text/html).`,
        'invalid_image_format',
      ),
    );
    const bmp = allowed.url('/not-a-format');
    expect(await errorFor(bmp)).toEqual(
      refusal(
        `cannot fetch ${bmp}: the bytes are not a supported image; supported formats are png, ` +
          'jpeg, webp and gif.',
        'invalid_image_format',
      ),
    );
  });

  it('a server that never answers, after the configured timeout', async () => {
    const url = allowed.url('/silent');
    expect(await errorFor(url)).toEqual(refusal(`cannot fetch ${url}: timed out after 1 s.`));
  });

  it('an upstream failure: HTTP 404, a refused connection', async () => {
    const missing = allowed.url('/missing.png');
    expect(await errorFor(missing)).toEqual(
      refusal(`cannot fetch ${missing}: the server answered HTTP 404.`),
    );
    expect(await errorFor(`http://${ALLOWED_HOST}:1/a.png`)).toEqual(
      refusal(`cannot fetch http://${ALLOWED_HOST}:1/a.png: the connection was refused.`),
    );
    // An unknown host is the unit spec's (with its own resolver): DNS here may be slow or absent.
  });

  it('a scheme other than http or https', async () => {
    expect(await errorFor('file:///etc/passwd')).toEqual(
      refusal("the URL scheme must be http or https, not 'file'."),
    );
    expect(await errorFor('ftp://example.com/a.png')).toEqual(
      refusal("the URL scheme must be http or https, not 'ftp'."),
    );
  });

  it('a data: URL that is malformed, not an image, or over the cap', async () => {
    expect(await errorFor('data:image/png;base64,%%%')).toEqual(
      refusal('the data URL has data that is not valid base64.'),
    );
    expect((await errorFor('data:image/svg+xml;base64,PHN2Zy8+')).code).toBe(
      'invalid_image_format',
    );
    const big = Buffer.concat([allowed.png, Buffer.alloc(MAX_BYTES)]).toString('base64');
    expect(await errorFor(`data:image/png;base64,${big}`)).toEqual(
      refusal('the image is larger than 65536 bytes.', 'invalid_image'),
    );
  });

  it('more images than a request may carry, before fetching any', async () => {
    const image = { type: 'image_url', image_url: { url: allowed.url('/image.png') } };
    const response = await post(stack().gateway, '/v1/chat/completions', {
      model: CHAT_MODEL,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Compare' }, ...Array(9).fill(image)] },
      ],
    });
    expect(response.status).toBe(400);
    expectSchema('ErrorResponse', response.body);
    expect(response.body).toEqual({
      error: {
        message:
          "Invalid 'messages[0].content[9].image_url': a request may carry at most 8 images; " +
          'this one has 9.',
        type: 'invalid_request_error',
        param: 'messages[0].content[9].image_url',
        code: 'too_many_images',
      },
    });
    expect(allowed.hits.size).toBe(0);
  });

  it('names the part in a later message, and answers a stream request before it starts', async () => {
    const response = await postSse(stack().gateway, {
      model: CHAT_MODEL,
      stream: true,
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi' },
        {
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: loopback.url('/image.png') } }],
        },
      ],
    });
    expect(response.status).toBe(400);
    expectSchema('ErrorResponse', response.body);
    expect(response.body).toMatchObject({
      error: { param: 'messages[2].content[0].image_url', code: 'invalid_image_url' },
    });
  });
});
