// The checks made from image headers alone, before any image is decoded: the tile grid each
// image will get (the same rule as the processor's, so the same grid as transformers' processor
// gives the fixture images) and the pixel bounds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pngHeaderOnly } from '@tessera/testing';
import { ImageDecodeError, ImageTooLargeError } from '../decoder.errors';
import type { ImageDetail } from '@tessera/text';
import { readIdefics3ProcessorConfig, type Idefics3ProcessorConfig } from './idefics3.processor';
import { planImages, type ImagePart } from './image.plan';

const MODEL = join(__dirname, '../../../../test/fixtures/models/tiny-smolvlm');
const reference = JSON.parse(readFileSync(join(MODEL, 'image_reference.json'), 'utf8')) as {
  cases: { image: string; detail: ImageDetail; rows: number; cols: number }[];
};

const part = (data: Uint8Array, detail: ImageDetail = 'auto', index = 0): ImagePart => ({
  image: { data, mimeType: 'image/png', detail },
  param: `messages[0].content[${index}].image_url`,
});
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

let config: Idefics3ProcessorConfig;
beforeAll(async () => {
  config = await readIdefics3ProcessorConfig(MODEL);
});

describe('planImages', () => {
  it.each(reference.cases.map((c) => [c.image, c.detail, c] as const))(
    '%s, detail %s: the grid transformers gives, from the header alone',
    (image, detail, expected) => {
      const data = new Uint8Array(readFileSync(join(MODEL, 'images', image)));
      expect(planImages([part(data, detail)], config, UNBOUNDED)).toEqual([
        { rows: expected.rows, cols: expected.cols },
      ]);
    },
  );

  it('plans a png that has a header and no pixels: nothing is decoded', () => {
    const square = pngHeaderOnly(6900, 6900);
    const wide = pngHeaderOnly(6900, 3000);
    expect(planImages([part(square), part(wide), part(square, 'low')], config, UNBOUNDED)).toEqual([
      { rows: 4, cols: 4 },
      { rows: 2, cols: 4 },
      { rows: 0, cols: 0 },
    ]);
  });

  it('refuses a header that states no size, naming the part', () => {
    const plan = () => planImages([part(pngHeaderOnly(64, 64).subarray(0, 20))], config, UNBOUNDED);
    expect(plan).toThrow(ImageDecodeError);
    expect(plan).toThrow(/messages\[0\]\.content\[0\]\.image_url .*no width and height/);
  });

  it('refuses one image over 48 megapixels from its header', () => {
    const plan = () => planImages([part(pngHeaderOnly(7000, 7000))], config, UNBOUNDED);
    expect(plan).toThrow(ImageTooLargeError);
    expect(plan).toThrow(/7000×7000 \(49000000 pixels\); an image may have at most 48000000/);
  });

  it("refuses the image that takes the request's pixels past the bound, naming it", () => {
    const image = pngHeaderOnly(4000, 4000);
    const parts = [0, 1, 2, 3].map((i) => part(image, 'low', i));
    expect(planImages(parts.slice(0, 2), config, 32_000_000)).toHaveLength(2);
    let refused: unknown;
    try {
      planImages(parts, config, 40_000_000);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ImageTooLargeError);
    expect(refused).toMatchObject({
      param: 'messages[0].content[2].image_url',
      message: expect.stringContaining('at most 40000000 pixels per request'),
    });
  });
});
