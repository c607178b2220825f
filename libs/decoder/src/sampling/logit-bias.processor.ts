// logit_bias (OpenAI): a bias of −100…100 added to a token's logit. Logits of real models stay
// within a few tens, so −100 effectively bans a token and +100 effectively forces it, as
// OpenAI documents. Token ids are checked against the vocabulary before a job reaches the
// worker (LogitBiasTokenError); the check here only guards against writing outside the row.
import type { LogitsProcessor } from './logits-processor.contract';

export class LogitBiasProcessor implements LogitsProcessor {
  private readonly ids: Int32Array;
  private readonly biases: Float32Array;

  constructor(bias: Readonly<Record<number, number>>, vocabSize: number) {
    const entries = Object.entries(bias);
    this.ids = new Int32Array(entries.length);
    this.biases = new Float32Array(entries.length);
    entries.forEach(([key, value], i) => {
      const id = Number(key);
      if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
        throw new RangeError(`logit_bias token id ${key} is outside the vocabulary (${vocabSize})`);
      }
      this.ids[i] = id;
      this.biases[i] = value;
    });
  }

  process(logits: Float32Array): void {
    for (let i = 0; i < this.ids.length; i++) logits[this.ids[i]] += this.biases[i];
  }
}
