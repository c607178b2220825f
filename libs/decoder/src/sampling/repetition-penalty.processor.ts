// repetition_penalty (extension, Hugging Face / CTRL semantics): every token already in the
// prompt or the output has its logit divided by the penalty when positive and multiplied by it
// when negative, once per step however often it occurred. 1 is off; > 1 discourages repeats.
import type { LogitsProcessor } from './logits-processor.contract';

export class RepetitionPenaltyProcessor implements LogitsProcessor {
  private readonly seen: Set<number>;

  constructor(
    private readonly penalty: number,
    promptIds: readonly number[],
  ) {
    this.seen = new Set(promptIds);
  }

  process(logits: Float32Array): void {
    const penalty = this.penalty;
    for (const id of this.seen) {
      const x = logits[id];
      logits[id] = x > 0 ? x / penalty : x * penalty;
    }
  }

  accept(tokenId: number): void {
    this.seen.add(tokenId);
  }
}
