// The tiles of a prompt's images in the one buffer the decoder worker takes, allocated once
// from the grids planned from the images' headers and filled as each image comes back from the
// image worker: an image's tiles (~53 MB as float32 for a 17-tile SmolVLM image) are then held
// once, not in their own array and again in a concatenation of all of them. An image whose
// tiles are not what its plan said (a header that lied) keeps its own array, and the buffer is
// built again from the pieces.
import type { ImageTiles } from '../decoder.protocol';
import type { ProcessedImage } from './idefics3.processor';
import type { TileGrid } from './idefics3.prompt';

/** Tiles of a grid: rows × cols and the global one, or the one tile of an unsplit image. */
const tilesOf = (grid: TileGrid) => grid.rows * grid.cols + 1;

export class PromptTiles {
  private readonly buffer: Float32Array;
  /** Where each image's tiles start in `buffer`, and (last) where they end. */
  private readonly offsets: number[];
  /** Images that did not come back as planned. */
  private readonly unplanned = new Map<number, ProcessedImage>();

  constructor(
    private readonly grids: readonly TileGrid[],
    private readonly side: number,
  ) {
    const plane = 3 * side * side;
    this.offsets = [0];
    for (const grid of grids) this.offsets.push(this.offsets.at(-1)! + tilesOf(grid) * plane);
    this.buffer = new Float32Array(this.offsets.at(-1)!);
  }

  /** Image `index`, processed: copied into place when it is as planned (then let go of). */
  put(index: number, image: ProcessedImage): void {
    const grid = this.grids[index];
    const [from, to] = [this.offsets[index], this.offsets[index + 1]];
    const planned =
      image.side === this.side &&
      image.rows === grid.rows &&
      image.cols === grid.cols &&
      image.pixelValues.length === to - from;
    if (planned) this.buffer.set(image.pixelValues, from);
    else this.unplanned.set(index, image);
  }

  /** Whether every image came back with the grid its header planned. */
  get planned(): boolean {
    return this.unplanned.size === 0;
  }

  /** Each image's grid as processed. */
  get processedGrids(): TileGrid[] {
    return this.grids.map((grid, i) => this.unplanned.get(i) ?? grid);
  }

  /** Every image's tiles in prompt order, once every image has been put. */
  tiles(): ImageTiles {
    if (this.planned) {
      const tiles = this.grids.reduce((sum, grid) => sum + tilesOf(grid), 0);
      return { pixelValues: this.buffer, tiles, side: this.side };
    }
    const pieces = this.grids.map(
      (_, i) =>
        this.unplanned.get(i)?.pixelValues ??
        this.buffer.subarray(this.offsets[i], this.offsets[i + 1]),
    );
    const pixelValues = new Float32Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    let at = 0;
    for (const piece of pieces) {
      pixelValues.set(piece, at);
      at += piece.length;
    }
    return {
      pixelValues,
      tiles: pixelValues.length / (3 * this.side * this.side),
      side: this.side,
    };
  }
}
