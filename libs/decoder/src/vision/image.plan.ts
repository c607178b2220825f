// Each image part's tile grid from the width and height its header states, and the pixel bounds
// of one request, checked before any image is decoded: the grids give the prompt's image tokens,
// so a request that cannot fit the context, or whose images are too large, is refused without
// the seconds of decoding and resizing that tens of megapixels cost.
import { ImageDecodeError, ImageTooLargeError } from '../decoder.errors';
import type { ImageInput } from '@tessera/text';
import { MAX_INPUT_PIXELS, type Idefics3ProcessorConfig } from './idefics3.processor';
import type { TileGrid } from './idefics3.prompt';
import { tilePlan } from './idefics3.tiling';
import { readImageSize } from './image-header.reader';

/** An image part and where the client put it (for errors). */
export interface ImagePart {
  readonly image: ImageInput;
  readonly param: string;
}

/**
 * The tile grid the processor will give each part, in order. Throws ImageDecodeError for a
 * header that states no size, ImageTooLargeError past MAX_INPUT_PIXELS for one image or
 * `maxPixelsPerRequest` for all of them together.
 */
export function planImages(
  parts: readonly ImagePart[],
  config: Idefics3ProcessorConfig,
  maxPixelsPerRequest: number,
): TileGrid[] {
  let total = 0;
  return parts.map(({ image, param }) => {
    const size = readImageSize(image.data);
    if (!size) {
      throw new ImageDecodeError(
        param,
        new Error(
          'its header states no width and height (not png, jpeg, webp or gif, or cut short)',
        ),
      );
    }
    const { width, height } = size;
    const pixels = width * height;
    if (pixels > MAX_INPUT_PIXELS) {
      throw new ImageTooLargeError(
        param,
        `the image is ${width}×${height} (${pixels} pixels); an image may have at most ` +
          `${MAX_INPUT_PIXELS} pixels`,
      );
    }
    total += pixels;
    if (total > maxPixelsPerRequest) {
      throw new ImageTooLargeError(
        param,
        `the request's images together have ${total} pixels up to this one; this model takes ` +
          `at most ${maxPixelsPerRequest} pixels per request`,
      );
    }
    const { rows, cols } = tilePlan(height, width, image.detail, config);
    return { rows, cols };
  });
}
