import sharp from 'sharp';
import { isDataUrl, parseDataUrl } from './data-url.parser';

const MAX = 64 * 1024;
let png: Buffer;
let jpeg: Buffer;

beforeAll(async () => {
  const image = () => sharp({ create: { width: 8, height: 8, channels: 3, background: 'teal' } });
  png = await image().png().toBuffer();
  jpeg = await image().jpeg().toBuffer();
});

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const refusal = (url: string, max = MAX) => {
  try {
    parseDataUrl(url, max);
  } catch (error) {
    return error as { message: string; code: string };
  }
  throw new Error('accepted');
};

describe('parseDataUrl', () => {
  it('decodes a base64 image of each supported type, the bytes unchanged', () => {
    expect(parseDataUrl(dataUrl('image/png', png), MAX)).toEqual({
      data: png,
      mimeType: 'image/png',
    });
    expect(parseDataUrl(dataUrl('image/jpeg', jpeg), MAX).mimeType).toBe('image/jpeg');
    expect(
      parseDataUrl(`data:IMAGE/PNG;charset=binary;BASE64,${png.toString('base64')}`, MAX),
    ).toEqual({ data: png, mimeType: 'image/png' });
  });

  it('takes the format from the bytes when the declared type is another supported one', () => {
    expect(parseDataUrl(dataUrl('image/png', jpeg), MAX).mimeType).toBe('image/jpeg');
  });

  it('recognises data: URLs whatever the case of the scheme', () => {
    expect(isDataUrl('DATA:image/png;base64,AA==')).toBe(true);
    expect(isDataUrl('https://example.com/a.png')).toBe(false);
  });

  it.each([
    ['no comma', 'data:image/png;base64'],
    ['not base64', `data:image/png,${encodeURIComponent('abc')}`],
    ['no media type or encoding', 'data:,abc'],
  ])('refuses a data URL with %s, showing the expected form', (_, url) => {
    expect(refusal(url)).toMatchObject({
      code: 'invalid_image_url',
      message: expect.stringContaining("expected 'data:image/png;base64,"),
    });
  });

  it.each([
    ['characters outside the alphabet', 'data:image/png;base64,iVBO!w0K'],
    ['whitespace', 'data:image/png;base64,iVBO w0K'],
    ['a bad length', 'data:image/png;base64,iVBORw0KG'],
    ['no data', 'data:image/png;base64,'],
    ['padding inside', 'data:image/png;base64,iV==Rw0K'],
  ])('refuses base64 data with %s', (_, url) => {
    expect(refusal(url)).toMatchObject({
      code: 'invalid_image_url',
      message: 'the data URL has data that is not valid base64',
    });
  });

  it('refuses a media type that is not one of the four images', () => {
    expect(refusal(dataUrl('image/svg+xml', png))).toMatchObject({
      code: 'invalid_image_format',
      message: expect.stringMatching(/'image\/svg\+xml' is not a supported image type/),
    });
    expect(refusal(dataUrl('text/plain', png)).code).toBe('invalid_image_format');
  });

  it('refuses bytes that are not an image whatever the declared type', () => {
    expect(refusal(dataUrl('image/png', Buffer.from('not an image at all')))).toMatchObject({
      code: 'invalid_image_format',
    });
  });

  it('refuses data over the cap before decoding it, and at the exact decoded size', () => {
    const big = Buffer.alloc(MAX + 1, 1);
    png.copy(big);
    expect(refusal(dataUrl('image/png', big))).toMatchObject({
      code: 'invalid_image',
      message: 'the image is larger than 65536 bytes',
    });
    // Exactly at the cap passes; one byte over (no padding to round it away) does not.
    const atCap = Buffer.alloc(3 * 1000);
    png.copy(atCap);
    expect(parseDataUrl(dataUrl('image/png', atCap), 3000).data.length).toBe(3000);
    expect(refusal(dataUrl('image/png', atCap), 2999).code).toBe('invalid_image');
    expect(refusal('data:image/png;base64,' + 'A'.repeat(400_000)).code).toBe('invalid_image');
  });
});
