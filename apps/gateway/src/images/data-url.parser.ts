// `data:` image URLs (RFC 2397), the way OpenAI takes them: `data:image/png;base64,<data>` with
// one of the four image types and base64 data, checked for size before it is decoded and for its
// magic bytes after. A parameter between the type and `;base64` (`;charset=…`) is ignored.
import {
  checkImageBytes,
  IMAGE_MIME_TYPES,
  mediaTypeOf,
  type ImageMimeType,
} from './image-format.check';
import { ImageInputError, tooLarge } from './image-input.error';
import type { ImageBytes } from './image-bytes';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const EXAMPLE = "'data:image/png;base64,iVBORw0KGgo…'";

export function isDataUrl(url: string): boolean {
  return url.slice(0, 5).toLowerCase() === 'data:';
}

export function parseDataUrl(url: string, maxBytes: number): ImageBytes {
  const comma = url.indexOf(',');
  const header = comma < 0 ? '' : url.slice(5, comma);
  const params = header.split(';');
  if (comma < 0 || params.length < 2 || params.at(-1)!.toLowerCase() !== 'base64') {
    throw malformed(`is not a base64 data URL; expected ${EXAMPLE}`);
  }
  const declared = mediaTypeOf(params[0]!);
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(declared)) {
    throw new ImageInputError(
      `the data URL's media type '${declared.slice(0, 64)}' is not a supported image type; ` +
        `supported types are ${IMAGE_MIME_TYPES.join(', ')}`,
      'invalid_image_format',
    );
  }
  const payload = url.slice(comma + 1);
  // Refused before decoding: 4 base64 characters carry 3 bytes.
  if (Math.floor(payload.length / 4) * 3 > maxBytes + 2) throw tooLarge(maxBytes);
  if (payload.length === 0 || payload.length % 4 === 1 || !BASE64.test(payload)) {
    throw malformed('has data that is not valid base64');
  }
  const data = Buffer.from(payload, 'base64');
  if (data.length > maxBytes) throw tooLarge(maxBytes);
  // The bytes decide the format when the declared type is another of the four.
  const mimeType: ImageMimeType = checkImageBytes(data);
  return { data, mimeType };
}

function malformed(why: string): ImageInputError {
  return new ImageInputError(`the data URL ${why}`);
}
