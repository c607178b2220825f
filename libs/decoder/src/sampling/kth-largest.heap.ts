// The k-th largest weight by a size-k min-heap in one pass: for the small k of top_k almost every
// weight is rejected by one comparison with the heap's root, so this costs little more than
// reading the row — unlike quickselect, it needs no copy of the vocabulary.

/**
 * The k-th largest of the weights ≥ floor, or `floor` when fewer than k of them exist. `heap`
 * needs room for k entries.
 */
export function kthLargestByHeap(
  weights: Float64Array,
  floor: number,
  k: number,
  heap: Float64Array,
): number {
  let size = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (!(w >= floor)) continue;
    if (size < k) {
      // Sift up.
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heap[parent] <= w) break;
        heap[at] = heap[parent];
        at = parent;
      }
      heap[at] = w;
    } else if (w > heap[0]) {
      // Replace the root and sift down.
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= k) break;
        const right = left + 1;
        const child = right < k && heap[right] < heap[left] ? right : left;
        if (heap[child] >= w) break;
        heap[at] = heap[child];
        at = child;
      }
      heap[at] = w;
    }
  }
  return size < k ? floor : heap[0];
}
