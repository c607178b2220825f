// The sizes and tile grid the Idefics3 / SmolVLM processor gives an image, from its dimensions
// alone: the one rule both the processor (on the decoded image) and the check made before any
// image is decoded (on the dimensions its header states) use, so that the image tokens counted
// against the context before decoding are the ones the processor then gives.
import type { ImageDetail } from '@tessera/text';
import type { TileGrid } from './idefics3.prompt';

/**
 * The fields of the processor's config (idefics3.processor.ts) the sizes depend on; declared here
 * because the processor imports this file.
 */
export interface TilingConfig {
  readonly do_image_splitting: boolean;
  readonly do_resize: boolean;
  readonly max_image_size: { readonly longest_edge: number };
  readonly size: { readonly longest_edge: number };
}

/** transformers' MAX_IMAGE_SIZE for Idefics3: no side beyond it after the first resize. */
const MAX_IMAGE_SIZE = 4096;

/** [height, width]. */
export type Size = readonly [number, number];

export interface TilePlan extends TileGrid {
  /** The tile side (max_image_size.longest_edge). */
  readonly side: number;
  /** After the longest-edge resize (do_resize), else the input's. */
  readonly resized: Size;
  /** What `resized` is resized to before it is cut: multiples of `side` when split. */
  readonly encoder: Size;
  /** Whether it is cut into rows × cols tiles plus the global one (else one tile). */
  readonly split: boolean;
}

/** _resize_output_size_rescale_to_max_len, then _resize_output_size_scale_below_upper_bound. */
function longestEdgeSize(height: number, width: number, maxLen: number): Size {
  const aspect = width / height;
  if (width >= height) {
    width = maxLen;
    height = Math.trunc(width / aspect);
    if (height % 2 !== 0) height += 1;
  } else {
    height = maxLen;
    width = Math.trunc(height * aspect);
    if (width % 2 !== 0) width += 1;
  }
  height = Math.max(height, 1);
  width = Math.max(width, 1);
  const bounded = width / height;
  if (width >= height && width > MAX_IMAGE_SIZE) {
    width = MAX_IMAGE_SIZE;
    height = Math.trunc(width / bounded);
  } else if (height > width && height > MAX_IMAGE_SIZE) {
    height = MAX_IMAGE_SIZE;
    width = Math.trunc(height * bounded);
  }
  return [Math.max(height, 1), Math.max(width, 1)];
}

/** resize_for_vision_encoder: both sides up to multiples of the tile side. */
function visionEncoderSize(height: number, width: number, side: number): Size {
  const aspect = width / height;
  if (width >= height) {
    width = Math.ceil(width / side) * side;
    height = Math.ceil(Math.trunc(width / aspect) / side) * side;
  } else {
    height = Math.ceil(height / side) * side;
    width = Math.ceil(Math.trunc(height * aspect) / side) * side;
  }
  return [height, width];
}

/**
 * What the processor does with a `height` × `width` image. `detail` 'low' turns splitting off
 * (one tile, the fewest image tokens); 'high' and 'auto' keep the model's do_image_splitting.
 * split_image's grid: none (0 × 0) when the image is one tile already.
 */
export function tilePlan(
  height: number,
  width: number,
  detail: ImageDetail,
  config: TilingConfig,
): TilePlan {
  const side = config.max_image_size.longest_edge;
  const resized = config.do_resize
    ? longestEdgeSize(height, width, config.size.longest_edge)
    : ([height, width] as const);
  if (!config.do_image_splitting || detail === 'low') {
    return { side, resized, encoder: [side, side], split: false, rows: 0, cols: 0 };
  }
  const encoder = visionEncoderSize(resized[0], resized[1], side);
  const [h, w] = encoder;
  const single = h <= side && w <= side;
  return {
    side,
    resized,
    encoder,
    split: true,
    rows: single ? 0 : Math.ceil(h / side),
    cols: single ? 0 : Math.ceil(w / side),
  };
}
