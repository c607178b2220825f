// What one request's images may cost: how many, how many fetched at once, and that the first
// refusal stops the rest. Against a real local server on an allowed address.
import { DEFAULT_IMAGE_INPUTS } from '@tessera/config';
import { startImageServer, type ImageServer } from '@tessera/testing';
import { OpenAIError } from '../errors/openai-error';
import { FETCH_CONCURRENCY, ImageInputs } from './image-inputs.service';

let server: ImageServer;
let images: ImageInputs;
beforeAll(async () => {
  server = await startImageServer();
  images = new ImageInputs({
    ...DEFAULT_IMAGE_INPUTS,
    fetchAllow: ['127.0.0.1'],
    fetchTimeoutMs: 5_000,
  });
});
afterAll(async () => {
  await images.onApplicationShutdown();
  await server.close();
});

const inputs = (urls: string[]) =>
  urls.map((url, i) => ({ url, param: `messages[0].content[${i}].image_url` }));

describe('ImageInputs.readAll', () => {
  it('reads data: and http URLs in order, at most FETCH_CONCURRENCY fetches at once', async () => {
    const urls = Array.from({ length: 7 }, (_, i) => server.url(`/slow?i=${i}`));
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const dataUrl = `data:image/gif;base64,${gif.toString('base64')}`;
    const read = await images.readAll(inputs([dataUrl, ...urls]));
    expect(read.map((image) => image.mimeType)).toEqual([
      'image/gif',
      ...urls.map(() => 'image/png'),
    ]);
    expect(read[0]!.data).toEqual(gif);
    expect(read[7]!.data).toEqual(server.png);
    expect(server.peakInFlight()).toBe(FETCH_CONCURRENCY);
  });

  it('refuses more than maxPerRequest images before fetching any, naming the first extra', async () => {
    server.hits.clear();
    const urls = Array.from({ length: 9 }, () => server.url('/image.png'));
    const error = await images.readAll(inputs(urls)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIError);
    expect((error as OpenAIError).toBody().error).toMatchObject({
      param: 'messages[0].content[8].image_url',
      code: 'too_many_images',
    });
    expect(server.hits.size).toBe(0);
  });

  it('answers the first refusal and aborts the fetches still running', async () => {
    server.abandoned.clear();
    const urls = [server.url('/silent'), server.url('/silent'), server.url('/page.html')];
    const error = (await images.readAll(inputs(urls)).catch((e: unknown) => e)) as OpenAIError;
    expect(error.toBody().error).toMatchObject({
      param: 'messages[0].content[2].image_url',
      code: 'invalid_image_format',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.abandoned.has('/silent')).toBe(true);
  });
});
