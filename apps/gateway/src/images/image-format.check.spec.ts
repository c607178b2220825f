import sharp from 'sharp';
import { checkImageBytes, imageFormatOf, mediaTypeOf } from './image-format.check';

const encoded = (format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff') =>
  sharp({ create: { width: 4, height: 3, channels: 3, background: '#c04020' } })
    .toFormat(format)
    .toBuffer();

describe('image magic bytes', () => {
  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
  ] as const)('recognises a real %s (encoded by libvips) as %s', async (format, mime) => {
    expect(imageFormatOf(await encoded(format))).toBe(mime);
  });

  it('recognises GIF87a as well as GIF89a', () => {
    expect(imageFormatOf(Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1'))).toBe('image/gif');
  });

  it('refuses other formats and near misses with the supported list', async () => {
    const notSupported = [
      await encoded('tiff'),
      Buffer.from('BM6\x00\x00\x00', 'latin1'), // bmp
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt ', 'latin1'), // RIFF, but audio
      Buffer.from([0x89, 0x50, 0x4e, 0x47]), // a truncated png signature
      Buffer.alloc(0),
    ];
    for (const bytes of notSupported) {
      expect(imageFormatOf(bytes)).toBeUndefined();
      expect(() => checkImageBytes(bytes)).toThrow(
        expect.objectContaining({
          code: 'invalid_image_format',
          message: expect.stringContaining('png, jpeg, webp and gif'),
        }),
      );
    }
  });

  it('reads the media type of a Content-Type header without its parameters', () => {
    expect(mediaTypeOf('Image/PNG; charset=binary')).toBe('image/png');
    expect(mediaTypeOf('')).toBe('');
  });
});
