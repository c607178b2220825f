// The image tokens of an Idefics3 / SmolVLM prompt: each `<image>` the chat template writes
// becomes the processor's expansion (transformers' and transformers.js's
// get_image_prompt_string): per tile `<fake_token_around_image><row_r_col_c>` and
// `image_seq_len` `<image>` tokens, a newline after each row, then the global tile as
// `<fake_token_around_image><global-img>` + `<image>` × image_seq_len + `<fake_token_around_image>`.
import { ImagePlaceholderError } from '../decoder.errors';

export const IMAGE_TOKEN = '<image>';
const FAKE = '<fake_token_around_image>';
const GLOBAL = '<global-img>';

export interface TileGrid {
  readonly rows: number;
  readonly cols: number;
}

export function imagePromptString(grid: TileGrid, imageSeqLen: number): string {
  const image = IMAGE_TOKEN.repeat(imageSeqLen);
  const global = `${FAKE}${GLOBAL}${image}${FAKE}`;
  if (grid.rows === 0 && grid.cols === 0) return global;
  let text = '';
  for (let r = 1; r <= grid.rows; r++) {
    for (let c = 1; c <= grid.cols; c++) text += `${FAKE}<row_${r}_col_${c}>${image}`;
    text += '\n';
  }
  return `${text}\n${global}`;
}

/** `<image>` tokens one image adds to the prompt (what usage.prompt_tokens counts for it). */
export function imageTokenCount(grid: TileGrid, imageSeqLen: number): number {
  return (grid.rows * grid.cols + 1) * imageSeqLen;
}

/**
 * The rendered prompt with each `<image>` placeholder expanded, in order. The template writes one
 * per image part (an `<image>` in the client's text is escaped in the rendering, so never found
 * here); a count that differs means the template left an image part out (one in a message the
 * template does not print).
 */
export function expandImagePlaceholders(
  rendered: string,
  grids: readonly TileGrid[],
  imageSeqLen: number,
): string {
  const pieces = rendered.split(IMAGE_TOKEN);
  if (pieces.length - 1 !== grids.length) {
    throw new ImagePlaceholderError(
      `The chat template wrote ${pieces.length - 1} image placeholders for ${grids.length} ` +
        `images: this model's template does not show an image where one was sent.`,
    );
  }
  return pieces.reduce(
    (out, piece, i) => out + imagePromptString(grids[i - 1], imageSeqLen) + piece,
  );
}
