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
