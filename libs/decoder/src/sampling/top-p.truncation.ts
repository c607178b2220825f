// top_p (OpenAI): keep the smallest set of most likely tokens whose probability adds up to at
// least top_p, measured among the tokens earlier stages kept (renormalised, as Hugging Face's
// TopPLogitsWarper sees top_k's output). Tokens tied with the last one kept are kept too.
import { gatherAll, gatherLikely } from './candidate.gathering';
import { massThreshold } from './partial-selection';
import type { Truncation } from './truncation.contract';

export class TopPTruncation implements Truncation {
  constructor(private readonly topP: number) {}

  raiseFloor(weights: Float64Array, floor: number, scratch: Float64Array): number {
    const { likely, likelyMass, candidateMass } = gatherLikely(weights, floor, scratch);
    const mass = this.topP * candidateMass;
    // When the likely tokens alone reach the mass, the boundary is one of them.
    const count = likelyMass >= mass ? likely : gatherAll(weights, floor, scratch);
    return Math.max(floor, massThreshold(scratch, count, mass));
  }
}
