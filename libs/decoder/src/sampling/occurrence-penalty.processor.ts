// presence_penalty and frequency_penalty (OpenAI semantics), one stage because both read the
// same counts: logit[j] −= count[j] × frequency_penalty + (count[j] > 0) × presence_penalty,
// where count[j] is how often token j was generated so far in this choice (the prompt does not
// count).
import type { LogitsProcessor } from './logits-processor.contract';

export class OccurrencePenaltyProcessor implements LogitsProcessor {
  private readonly counts = new Map<number, number>();

  constructor(
    private readonly presencePenalty: number,
    private readonly frequencyPenalty: number,
  ) {}

  process(logits: Float32Array): void {
    for (const [id, count] of this.counts) {
      logits[id] -= count * this.frequencyPenalty + this.presencePenalty;
    }
  }

  accept(tokenId: number): void {
    this.counts.set(tokenId, (this.counts.get(tokenId) ?? 0) + 1);
  }
}
