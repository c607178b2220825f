import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { blankPng, pngHeaderOnly } from '@tessera/testing';
import { readImageSize } from './image-header.reader';

const IMAGES = join(__dirname, '../../../../test/fixtures/models/tiny-smolvlm/images');

/** A 37 × 23 picture in each format and flavour the reader tells apart. */
const encoders: Record<string, (image: Sharp) => Sharp> = {
  png: (image) => image.png(),
  'jpeg (with exif before the frame header)': (image) => image.jpeg().withExif({ IFD0: {} }),
  'progressive jpeg': (image) => image.jpeg({ progressive: true }),
  'webp, lossy (VP8)': (image) => image.webp({ quality: 50 }),
  'webp, lossless (VP8L)': (image) => image.webp({ lossless: true }),
  'webp with alpha (VP8X)': (image) => image.ensureAlpha(0.5).webp({ quality: 50 }),
  gif: (image) => image.gif(),
};

describe('readImageSize', () => {
  it.each(Object.keys(encoders))('reads the size of a %s without decoding it', async (kind) => {
    const picture = sharp({
      create: { width: 37, height: 23, channels: 3, background: '#a04010' },
    });
    const bytes = await encoders[kind](picture).toBuffer();
    expect(readImageSize(bytes)).toEqual({ width: 37, height: 23 });
  });

  it.each(readdirSync(IMAGES))('states the size sharp decodes %s to', async (name) => {
    const bytes = readFileSync(join(IMAGES, name));
    const { info } = await sharp(bytes, { pages: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect(readImageSize(bytes)).toEqual({ width: info.width, height: info.height });
  });

  it('reads a png header that has no pixel data after it', () => {
    expect(readImageSize(pngHeaderOnly(6900, 6900))).toEqual({ width: 6900, height: 6900 });
    expect(readImageSize(blankPng(300, 200))).toEqual({ width: 300, height: 200 });
  });

  it('states nothing for bytes that are no image, or cut before the size', () => {
    const png = pngHeaderOnly(640, 480);
    const jpeg = readFileSync(
      join(
        IMAGES,
        readdirSync(IMAGES).find((n) => n.endsWith('.jpg'))!,
      ),
    );
    expect(readImageSize(new TextEncoder().encode('not an image'))).toBeUndefined();
    expect(readImageSize(png.subarray(0, 20))).toBeUndefined();
    expect(readImageSize(jpeg.subarray(0, 8))).toBeUndefined();
    expect(readImageSize(pngHeaderOnly(0, 480))).toBeUndefined();
  });
});
