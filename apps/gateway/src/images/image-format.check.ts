// The image formats Tessera takes (OpenAI's four: png, jpeg, webp and gif, whose first frame is
// used), recognised by their magic bytes: a declared type is a claim, the bytes are what the
// image decoder will see.
import { ImageInputError } from './image-input.error';

export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

const ascii = (text: string) => Buffer.from(text, 'latin1');
const startsWith = (bytes: Uint8Array, prefix: Uint8Array, at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);

const PNG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const JPEG = Uint8Array.of(0xff, 0xd8, 0xff);
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** The format the bytes are in, or undefined when they are none of the four. */
export function imageFormatOf(bytes: Uint8Array): ImageMimeType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return undefined;
}

/** The supported format of the bytes, else a 400 saying which formats are. */
export function checkImageBytes(bytes: Uint8Array): ImageMimeType {
  const format = imageFormatOf(bytes);
  if (format === undefined) {
    throw new ImageInputError(
      'the bytes are not a supported image; supported formats are png, jpeg, webp and gif',
      'invalid_image_format',
    );
  }
  return format;
}

/** The media type of a Content-Type header or data: URL, without parameters, lower case. */
export function mediaTypeOf(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}
