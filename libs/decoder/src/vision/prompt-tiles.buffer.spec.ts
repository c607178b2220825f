import type { ProcessedImage } from './idefics3.processor';
import { PromptTiles } from './prompt-tiles.buffer';

const SIDE = 2;
const PLANE = 3 * SIDE * SIDE;

/** An image of `rows` × `cols` tiles (+ global, or one tile), every value `value`. */
function image(rows: number, cols: number, value: number): ProcessedImage {
  const tiles = rows * cols + 1;
  return {
    pixelValues: new Float32Array(tiles * PLANE).fill(value),
    tiles,
    side: SIDE,
    rows,
    cols,
  };
}

describe('PromptTiles', () => {
  it('puts images as planned in one buffer, in prompt order whatever order they come in', () => {
    const tiles = new PromptTiles(
      [
        { rows: 1, cols: 2 },
        { rows: 0, cols: 0 },
      ],
      SIDE,
    );
    tiles.put(1, image(0, 0, 2));
    tiles.put(0, image(1, 2, 1));
    expect(tiles.planned).toBe(true);
    const { pixelValues, tiles: count, side } = tiles.tiles();
    expect([count, side]).toEqual([4, SIDE]);
    expect(Array.from(pixelValues)).toEqual([
      ...new Array(3 * PLANE).fill(1),
      ...new Array(PLANE).fill(2),
    ]);
  });

  it('keeps an image that is not as planned, and gives its grid and tiles', () => {
    const tiles = new PromptTiles(
      [
        { rows: 0, cols: 0 },
        { rows: 2, cols: 2 },
      ],
      SIDE,
    );
    tiles.put(0, image(0, 0, 1));
    tiles.put(1, image(1, 1, 3));
    expect(tiles.planned).toBe(false);
    expect(tiles.processedGrids).toMatchObject([
      { rows: 0, cols: 0 },
      { rows: 1, cols: 1 },
    ]);
    const { pixelValues, tiles: count } = tiles.tiles();
    expect(count).toBe(3);
    expect(Array.from(pixelValues)).toEqual([
      ...new Array(PLANE).fill(1),
      ...new Array(2 * PLANE).fill(3),
    ]);
  });
});
