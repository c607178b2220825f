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
import type { ImageDetail } from '@tessera/text';
import { tilePlan, type TilePlan } from './idefics3.tiling';
import { cropRgb, resizeLanczos, type RgbImage } from './pil-lanczos.resample';

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

/** split_image: row-major tiles (the plan's grid), then the global tile. */
function splitImage(image: RgbImage, plan: TilePlan): RgbImage[] {
  const { width, height } = image;
  const { rows, cols, side } = plan;
  if (rows === 0 && cols === 0) return [image];
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
  return tiles;
}

/** What the processor gives one image, as `tilePlan` says for its dimensions. */
export function processRgb(
  image: RgbImage,
  detail: ImageDetail,
  config: Idefics3ProcessorConfig,
): ProcessedImage {
  const plan = tilePlan(image.height, image.width, detail, config);
  const { side } = plan;
  const [height, width] = plan.resized;
  const resized = resizeLanczos(image, width, height);
  const tiles = plan.split
    ? splitImage(resizeLanczos(resized, plan.encoder[1], plan.encoder[0]), plan)
    : [resizeLanczos(resized, side, side)];
  for (const tile of tiles) {
    if (tile.width !== side || tile.height !== side) {
      throw new Error(
        `a ${tile.width}×${tile.height} tile; the vision encoder takes ${side}×${side}`,
      );
    }
  }
  return {
    pixelValues: normalise(tiles, config),
    tiles: tiles.length,
    side,
    rows: plan.rows,
    cols: plan.cols,
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
