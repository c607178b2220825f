// top_k (extension, as in Hugging Face and vLLM): keep the k most likely tokens. Tokens tied
// with the k-th are kept too, as Hugging Face's TopKLogitsWarper does.
import { kthLargest } from './partial-selection';
import type { Truncation } from './truncation.contract';

export class TopKTruncation implements Truncation {
  constructor(private readonly k: number) {}

  raiseFloor(weights: Float64Array, floor: number, scratch: Float64Array): number {
    let candidates = 0;
    for (let i = 0; i < weights.length; i++) {
      if (weights[i] >= floor) scratch[candidates++] = weights[i];
    }
    if (candidates <= this.k) return floor;
    return Math.max(floor, kthLargest(scratch, candidates, this.k));
  }
}
