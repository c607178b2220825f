// top_k (extension, as in Hugging Face and vLLM): keep the k most likely tokens. Tokens tied
// with the k-th are kept too, as Hugging Face's TopKLogitsWarper does.
import { gatherAll } from './candidate.gathering';
import { kthLargestByHeap } from './kth-largest.heap';
import { kthLargest } from './partial-selection';
import type { Truncation } from './truncation.contract';

/** Above this k a heap would churn on most of the vocabulary; quickselect is linear. */
const HEAP_MAX_K = 1024;

export class TopKTruncation implements Truncation {
  constructor(private readonly k: number) {}

  raiseFloor(weights: Float64Array, floor: number, scratch: Float64Array): number {
    if (this.k <= HEAP_MAX_K) return kthLargestByHeap(weights, floor, this.k, scratch);
    const count = gatherAll(weights, floor, scratch);
    return count <= this.k ? floor : kthLargest(scratch, count, this.k);
  }
}
