// The Idefics3 / SmolVLM image processor (transformers' Idefics3ImageProcessor, the Python one
// the checkpoints were trained with), step for step: longest edge to `size.longest_edge`, then
// either (splitting) both sides up to multiples of `max_image_size` and cut into square tiles
// plus the whole image as a last "global" tile, or (no splitting) one square tile; 8-bit values
// rescaled and normalised. Images are decoded with sharp (first frame of an animation, alpha
// composited over white as transformers' convert_to_rgb does); resizes are Pillow's LANCZOS.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import type { ImageDetail } from '../decoder.protocol';
import { cropRgb, resizeLanczos, type RgbImage } from './pil-lanczos.resample';

/** transformers' MAX_IMAGE_SIZE for Idefics3: no side beyond it after the first resize. */
const MAX_IMAGE_SIZE = 4096;

/**
 * Most pixels a decoded image may have (sharp refuses more before decoding): 48 Mpx is 144 MB
 * of RGB, bounding the memory one image part can cost whatever its compressed size.
 */
export const MAX_INPUT_PIXELS = 48_000_000;

const LongestEdge = z.object({ longest_edge: z.number().int().positive() });

export const Idefics3ProcessorConfigSchema = z.object({
  do_image_splitting: z.boolean().default(true),
  do_resize: z.boolean().default(true),
  do_rescale: z.boolean().default(true),
  do_normalize: z.boolean().default(true),
  image_mean: z.tuple([z.number(), z.number(), z.number()]).default([0.5, 0.5, 0.5]),
  image_std: z.tuple([z.number(), z.number(), z.number()]).default([0.5, 0.5, 0.5]),
  max_image_size: LongestEdge,
  rescale_factor: z.number().default(1 / 255),
  size: LongestEdge,
  /** 1 is PIL's LANCZOS, the only filter these checkpoints use. */
  resample: z.literal(1).default(1),
});
export type Idefics3ProcessorConfig = z.infer<typeof Idefics3ProcessorConfigSchema>;

export async function readIdefics3ProcessorConfig(
  modelDir: string,
): Promise<Idefics3ProcessorConfig> {
  const text = await readFile(join(modelDir, 'preprocessor_config.json'), 'utf8');
  return Idefics3ProcessorConfigSchema.parse(JSON.parse(text));
}

/** One image as the vision encoder takes it. */
export interface ProcessedImage {
  /** Tiles × 3 × side × side, normalised. */
  readonly pixelValues: Float32Array;
  readonly tiles: number;
  readonly side: number;
  /** Tile grid (0 × 0 when not split: one tile). */
  readonly rows: number;
  readonly cols: number;
}

/**
 * The image's first frame as 8-bit RGB. Transparency is flattened onto white first (what
 * transformers' convert_to_rgb gives, though it composites after resizing: semi-transparent
 * pixels may differ by a level or two; opaque images are exact).
 */
export async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  const { data, info } = await sharp(bytes, {
    pages: 1,
    failOn: 'error',
    limitInputPixels: MAX_INPUT_PIXELS,
  })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`decoded ${info.channels} channels, expected RGB`);
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
  };
}

/** _resize_output_size_rescale_to_max_len, then _resize_output_size_scale_below_upper_bound. */
function longestEdgeSize(height: number, width: number, maxLen: number): [number, number] {
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
function visionEncoderSize(height: number, width: number, side: number): [number, number] {
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

/** split_image: row-major tiles, then the global tile. */
function splitImage(
  image: RgbImage,
  side: number,
): { tiles: RgbImage[]; rows: number; cols: number } {
  const { width, height } = image;
  if (height <= side && width <= side) return { tiles: [image], rows: 0, cols: 0 };
  const rows = Math.ceil(height / side);
  const cols = Math.ceil(width / side);
  const tileHeight = Math.ceil(height / rows);
  const tileWidth = Math.ceil(width / cols);
  const tiles: RgbImage[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = c * tileWidth;
      const y = r * tileHeight;
      tiles.push(
        cropRgb(image, x, y, Math.min(tileWidth, width - x), Math.min(tileHeight, height - y)),
      );
    }
  }
  tiles.push(resizeLanczos(image, side, side));
  return { tiles, rows, cols };
}

/**
 * What the processor gives one image. `detail` 'low' turns splitting off (one tile, the fewest
 * image tokens); 'high' and 'auto' keep the model's own setting (do_image_splitting).
 */
export function processRgb(
  image: RgbImage,
  detail: ImageDetail,
  config: Idefics3ProcessorConfig,
): ProcessedImage {
  const side = config.max_image_size.longest_edge;
  let resized = image;
  if (config.do_resize) {
    const [height, width] = longestEdgeSize(image.height, image.width, config.size.longest_edge);
    resized = resizeLanczos(image, width, height);
  }
  let split: { tiles: RgbImage[]; rows: number; cols: number };
  if (config.do_image_splitting && detail !== 'low') {
    const [height, width] = visionEncoderSize(resized.height, resized.width, side);
    split = splitImage(resizeLanczos(resized, width, height), side);
  } else {
    split = { tiles: [resizeLanczos(resized, side, side)], rows: 0, cols: 0 };
  }
  for (const tile of split.tiles) {
    if (tile.width !== side || tile.height !== side) {
      throw new Error(
        `a ${tile.width}×${tile.height} tile; the vision encoder takes ${side}×${side}`,
      );
    }
  }
  return {
    pixelValues: normalise(split.tiles, config),
    tiles: split.tiles.length,
    side,
    rows: split.rows,
    cols: split.cols,
  };
}

/** Channels first, rescaled and normalised as transformers does (in double, stored as float32). */
function normalise(tiles: readonly RgbImage[], config: Idefics3ProcessorConfig): Float32Array {
  const plane = tiles[0].width * tiles[0].height;
  const out = new Float32Array(tiles.length * 3 * plane);
  const scale = config.do_rescale ? config.rescale_factor : 1;
  tiles.forEach((tile, t) => {
    for (let c = 0; c < 3; c++) {
      const mean = config.do_normalize ? config.image_mean[c] : 0;
      const std = config.do_normalize ? config.image_std[c] : 1;
      const base = (t * 3 + c) * plane;
      for (let i = 0; i < plane; i++) out[base + i] = (tile.data[i * 3 + c] * scale - mean) / std;
    }
  });
  return out;
}

export async function processImage(
  bytes: Uint8Array,
  detail: ImageDetail,
  config: Idefics3ProcessorConfig,
): Promise<ProcessedImage> {
  return processRgb(await decodeRgb(bytes), detail, config);
}
