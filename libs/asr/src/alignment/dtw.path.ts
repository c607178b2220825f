// Dynamic time warping as Whisper aligns tokens to audio frames (openai-whisper timing.py
// `dtw_cpu`, transformers' `_dynamic_time_warping`): the cheapest monotonic path through a cost
// matrix from its first cell to its last, moving down, right or diagonally. Written here because
// transformers.js's `dynamic_time_warping` is not in its package exports (see median.filter.ts)
// and builds nested arrays; this one keeps the accumulated costs in a Float32Array as the
// reference keeps them in float32, so that near-ties break the same way.

export interface WarpingPath {
  /** Row (token) index of each step of the path, first to last, non-decreasing. */
  readonly textIndices: Int32Array;
  /** Column (frame) index of each step, non-decreasing. */
  readonly timeIndices: Int32Array;
}

const DIAGONAL = 0;
const DOWN = 1; // from the row above: the next token, same frame
const RIGHT = 2; // from the column to the left: the same token, next frame

/** The path through `matrix` (`rows` × `cols`, row-major): the costs, lower is closer. */
export function dynamicTimeWarping(
  matrix: ArrayLike<number>,
  rows: number,
  cols: number,
): WarpingPath {
  if (rows <= 0 || cols <= 0 || matrix.length !== rows * cols)
    throw new RangeError(`a ${rows} × ${cols} matrix cannot hold ${matrix.length} values`);
  const width = cols + 1;
  const cost = new Float32Array((rows + 1) * width).fill(Infinity);
  const trace = new Int8Array((rows + 1) * width).fill(-1);
  cost[0] = 0;
  for (let j = 1; j <= cols; j++) {
    for (let i = 1; i <= rows; i++) {
      const c0 = cost[(i - 1) * width + j - 1];
      const c1 = cost[(i - 1) * width + j];
      const c2 = cost[i * width + j - 1];
      // The reference's comparisons, strict, in its order: a tie goes to the later branch.
      let c: number;
      let t: number;
      if (c0 < c1 && c0 < c2) {
        c = c0;
        t = DIAGONAL;
      } else if (c1 < c0 && c1 < c2) {
        c = c1;
        t = DOWN;
      } else {
        c = c2;
        t = RIGHT;
      }
      cost[i * width + j] = matrix[(i - 1) * cols + j - 1] + c;
      trace[i * width + j] = t;
    }
  }
  for (let j = 0; j <= cols; j++) trace[j] = RIGHT;
  for (let i = 0; i <= rows; i++) trace[i * width] = DOWN;

  const text: number[] = [];
  const time: number[] = [];
  let i = rows;
  let j = cols;
  while (i > 0 || j > 0) {
    text.push(i - 1);
    time.push(j - 1);
    const t = trace[i * width + j];
    if (t === DIAGONAL) {
      i--;
      j--;
    } else if (t === DOWN) i--;
    else j--;
  }
  return {
    textIndices: Int32Array.from(text.reverse()),
    timeIndices: Int32Array.from(time.reverse()),
  };
}
