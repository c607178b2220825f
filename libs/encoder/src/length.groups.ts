// Splits one batch into runs of similar length. A padded batch costs (rows × longest row) tokens
// of compute; with lengths 16–128 mixed, padding everything to the longest wastes ~40% of it.
// Sorting by length and cutting wherever padding would exceed `maxWaste` of the real tokens
// keeps the large-batch speed-up while paying for almost no padding.

/** Row indices grouped by length (ascending), each group's padding ≤ maxWaste × its tokens. */
export function groupByLength(lengths: readonly number[], maxWaste = 0.25): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => lengths[a] - lengths[b]);
  const groups: number[][] = [];
  let group: number[] = [];
  let tokens = 0;
  for (const index of order) {
    const length = lengths[index];
    // Sorted ascending, so the new row is the group's longest: every row pads to it.
    const padded = length * (group.length + 1);
    if (group.length > 0 && padded > (1 + maxWaste) * (tokens + length)) {
      groups.push(group);
      group = [];
      tokens = 0;
    }
    group.push(index);
    tokens += length;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** Rows of one width, row-major: `[rows, width]`. */
export interface RowMatrix {
  readonly values: Float32Array;
  /** 0 when no row ran. */
  readonly width: number;
}

/**
 * Runs the `runnable` rows of `sequences` group by group (see groupByLength) and gathers each
 * group's output rows back at their row index: `[sequences.length, width]`, rows not run zero.
 * The batch loop every encoder head shares; `runGroup` pads, runs and reads its head's output.
 */
export async function runInLengthGroups(
  sequences: readonly (readonly number[])[],
  runnable: readonly number[],
  runGroup: (group: readonly (readonly number[])[]) => Promise<RowMatrix>,
): Promise<RowMatrix> {
  let values = new Float32Array(0);
  let width = 0;
  for (const group of groupByLength(runnable.map((row) => sequences[row].length))) {
    const rows = group.map((i) => runnable[i]);
    const part = await runGroup(rows.map((row) => sequences[row]));
    if (width === 0) {
      width = part.width;
      values = new Float32Array(sequences.length * width);
    }
    rows.forEach((row, i) =>
      values.set(part.values.subarray(i * width, (i + 1) * width), row * width),
    );
  }
  return { values, width };
}
