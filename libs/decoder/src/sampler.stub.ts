// TEMPORARY greedy stand-in for ./sampling's createSequenceSampler until wt-sampler lands; deleted before the final commit.
import type {
  SampledToken,
  SequenceSampler,
  SequenceSamplerInit,
} from './sampling/sampler.contract';

export function createSequenceSampler(init: SequenceSamplerInit): SequenceSampler {
  return {
    next(logits: Float32Array): SampledToken {
      for (const [id, bias] of Object.entries(init.options.logitBias)) logits[Number(id)] += bias;
      let best = 0;
      for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
      let sum = 0;
      for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - logits[best]);
      const logprob = -Math.log(sum);
      return {
        tokenId: best,
        logprob,
        top: init.topLogprobs > 0 ? [{ tokenId: best, logprob }] : [],
      };
    },
  };
}
