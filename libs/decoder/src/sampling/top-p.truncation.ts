// top_p (OpenAI): keep the smallest set of most likely tokens whose probability adds up to at
// least top_p, measured among the tokens earlier stages kept (renormalised, as Hugging Face's
// TopPLogitsWarper sees top_k's output). Tokens tied with the last one kept are kept too.
import { massThreshold } from './partial-selection';
import type { Truncation } from './truncation.contract';

export class TopPTruncation implements Truncation {
  constructor(private readonly topP: number) {}

  raiseFloor(weights: Float64Array, floor: number, scratch: Float64Array): number {
    let candidates = 0;
    let total = 0;
    for (let i = 0; i < weights.length; i++) {
      const w = weights[i];
      if (w >= floor) {
        scratch[candidates++] = w;
        total += w;
      }
    }
    return Math.max(floor, massThreshold(scratch, candidates, this.topP * total));
  }
}
