// The sampler of one sequence (one choice): runs the logits processors on the row, reads the
// logprobs, then picks the token — argmax at temperature 0, otherwise one draw from the
// sequence's own random stream over the weights the truncations left. Every pass is O(vocab);
// nothing is allocated per step except the returned token (and its top list when asked).
import { logitsProcessorsFor, truncationsFor } from './sampling.pipeline';
import { samplingScratch, type SamplingScratch } from './sampling.scratch';
import type { LogitsProcessor } from './logits-processor.contract';
import type { SampledToken, SequenceSampler, SequenceSamplerInit } from './sampler.contract';
import { randomSeed, SequenceRandom } from './sequence.random';
import { TopTokensSelection } from './top-tokens.selection';
import type { Truncation } from './truncation.contract';

const NO_TOP: SampledToken['top'] = Object.freeze([]);

export function createSequenceSampler(init: SequenceSamplerInit): SequenceSampler {
  return new PipelineSequenceSampler(init);
}

/** Index of the largest logit, the lowest id on ties (as torch.argmax); NaN never wins. */
export function argmax(row: Float32Array): number {
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < row.length; i++) {
    if (row[i] > bestValue) {
      bestValue = row[i];
      best = i;
    }
  }
  return best;
}

function topLogprobs(top: TopTokensSelection, row: Float32Array, lse: number): SampledToken['top'] {
  top.select(row);
  const entries = new Array<{ tokenId: number; logprob: number }>(top.count);
  for (let i = 0; i < top.count; i++) {
    entries[i] = { tokenId: top.ids[i], logprob: top.logits[i] - lse };
  }
  return entries;
}

function logSumExp(row: Float32Array, max: number): number {
  let total = 0;
  for (let i = 0; i < row.length; i++) total += Math.exp(row[i] - max);
  return max + Math.log(total);
}

class PipelineSequenceSampler implements SequenceSampler {
  private readonly vocabSize: number;
  private readonly processors: LogitsProcessor[];
  private readonly truncations: Truncation[];
  /** 1 / temperature; 0 means greedy. */
  private readonly inverseTemperature: number;
  private readonly random: SequenceRandom;
  private readonly wantsLogprob: boolean;
  private readonly top?: TopTokensSelection;
  private readonly scratch: SamplingScratch;
  /** Set by `draw`: the row's largest logit and Σ exp(logit − max) before truncation. */
  private rowMax = 0;
  private rowTotal = 0;

  constructor(init: SequenceSamplerInit) {
    const { options, vocabSize, choice, topLogprobs } = init;
    this.vocabSize = vocabSize;
    this.processors = logitsProcessorsFor(init);
    this.inverseTemperature = options.temperature > 0 ? 1 / options.temperature : 0;
    this.truncations = this.inverseTemperature > 0 ? truncationsFor(options, vocabSize) : [];
    this.random = new SequenceRandom(options.seed ?? randomSeed(), choice);
    this.wantsLogprob = init.logprobs ?? true;
    if (topLogprobs > 0) this.top = new TopTokensSelection(topLogprobs);
    this.scratch = samplingScratch(vocabSize);
  }

  next(row: Float32Array): SampledToken {
    if (row.length !== this.vocabSize) {
      throw new RangeError(`logits row has ${row.length} entries, expected ${this.vocabSize}`);
    }
    for (const stage of this.processors) stage.process(row);

    let tokenId: number;
    let max: number;
    if (this.inverseTemperature === 0) {
      tokenId = argmax(row);
      max = row[tokenId];
    } else {
      tokenId = this.draw(row);
      max = this.rowMax;
    }
    if (!(max > -Infinity)) {
      // A constraint that bans every token (or a broken row) must fail the sequence loudly
      // rather than emit token 0.
      throw new RangeError('no token can be picked: every logit is −Infinity or NaN');
    }

    let logprob = NaN;
    let top = NO_TOP;
    if (this.wantsLogprob || this.top) {
      // At temperature 1 the draw already summed exactly the terms log-sum-exp needs.
      const lse =
        this.inverseTemperature === 1 ? max + Math.log(this.rowTotal) : logSumExp(row, max);
      logprob = row[tokenId] - lse;
      if (this.top) top = topLogprobs(this.top, row, lse);
    }

    for (const stage of this.processors) stage.accept?.(tokenId);
    return { tokenId, logprob, top };
  }

  /** One draw from softmax(row / temperature) restricted to the weights at or above the floor. */
  private draw(row: Float32Array): number {
    const weights = this.scratch.weights;
    const inverseTemperature = this.inverseTemperature;
    let max = -Infinity;
    for (let i = 0; i < row.length; i++) if (row[i] > max) max = row[i];
    let total = 0;
    for (let i = 0; i < row.length; i++) {
      const w = Math.exp((row[i] - max) * inverseTemperature);
      weights[i] = w;
      total += w;
    }
    this.rowMax = max;
    this.rowTotal = total;

    let floor = 0;
    for (const stage of this.truncations) {
      floor = stage.raiseFloor(weights, floor, this.scratch.selection);
    }
    let kept = total;
    if (floor > 0) {
      kept = 0;
      for (let i = 0; i < weights.length; i++) if (weights[i] >= floor) kept += weights[i];
    }

    // Exactly one draw per step, whatever the stages did: the stream stays in step with the
    // token count, so a seeded request replays identically.
    const target = this.random.nextDouble() * kept;
    let cumulative = 0;
    let last = -1;
    for (let i = 0; i < weights.length; i++) {
      const w = weights[i];
      if (!(w > 0) || w < floor) continue;
      cumulative += w;
      last = i;
      if (cumulative > target) return i;
    }
    // Only reached when rounding left `target` a hair above the running sum.
    return last >= 0 ? last : argmax(row);
  }
}
