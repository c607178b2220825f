// min_p (extension, as in Hugging Face and vLLM): drop tokens less likely than min_p × the
// probability of the most likely token. The most likely token weighs exactly 1 (see the
// truncation contract), so the floor is min_p itself: no pass over the vocabulary.
import type { Truncation } from './truncation.contract';

export class MinPTruncation implements Truncation {
  constructor(private readonly minP: number) {}

  raiseFloor(_weights: Float64Array, floor: number): number {
    return Math.max(floor, this.minP);
  }
}
