import type { SamplingOptions } from '../decoder.protocol';
import type { LogitsProcessor } from './logits-processor.contract';
import type { SequenceSampler, SequenceSamplerInit } from './sampler.contract';
import { DEFAULT_SAMPLING_OPTIONS } from './sampling.defaults';
import { createSequenceSampler } from './sequence.sampler';

const LOGITS = [2, 1, 0.5, 0, -1, 1.5];

function sampler(
  options: Partial<SamplingOptions>,
  init: Partial<Omit<SequenceSamplerInit, 'options'>> = {},
): SequenceSampler {
  return createSequenceSampler({
    options: { ...DEFAULT_SAMPLING_OPTIONS, ...options },
    promptIds: [],
    vocabSize: LOGITS.length,
    choice: 0,
    topLogprobs: 0,
    ...init,
  });
}

/** `steps` tokens, each picked from a fresh copy of `logits` (stages edit rows in place). */
function tokens(s: SequenceSampler, steps: number, logits: readonly number[] = LOGITS): number[] {
  return Array.from({ length: steps }, () => s.next(Float32Array.from(logits)).tokenId);
}

function softmax(logits: readonly number[], temperature = 1): number[] {
  const max = Math.max(...logits);
  const e = logits.map((x) => Math.exp((x - max) / temperature));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

function frequencies(picked: number[], vocabSize: number): number[] {
  const counts = new Array<number>(vocabSize).fill(0);
  for (const id of picked) counts[id]++;
  return counts.map((c) => c / picked.length);
}

const DRAWS = 20000;
/** About 4.5 standard deviations of a frequency estimated from DRAWS draws at p = 0.5. */
const TOLERANCE = 0.016;

describe('createSequenceSampler', () => {
  describe('temperature 0', () => {
    it('picks the argmax, the lowest id on ties', () => {
      expect(tokens(sampler({ temperature: 0 }), 3)).toEqual([0, 0, 0]);
      expect(tokens(sampler({ temperature: 0 }), 1, [1, 3, 3, 2, 0, 0])).toEqual([1]);
    });

    it('still reports real logprobs', () => {
      const s = sampler({ temperature: 0 }, { topLogprobs: 2 });
      const picked = s.next(Float32Array.from(LOGITS));
      const p = softmax(LOGITS);
      expect(picked.logprob).toBeCloseTo(Math.log(p[0]), 6);
      expect(picked.top.map((t) => t.tokenId)).toEqual([0, 5]);
      expect(picked.top[1].logprob).toBeCloseTo(Math.log(p[5]), 6);
    });

    it('ignores top_k, top_p and min_p', () => {
      expect(tokens(sampler({ temperature: 0, topK: 1, topP: 0.01, minP: 0.9 }), 2)).toEqual([
        0, 0,
      ]);
    });
  });

  describe('drawing', () => {
    it.each([1, 0.5, 2])('follows softmax(logits / %d) over many draws', (temperature) => {
      const seen = frequencies(tokens(sampler({ temperature, seed: 7 }), DRAWS), LOGITS.length);
      const expected = softmax(LOGITS, temperature);
      seen.forEach((f, i) => expect(Math.abs(f - expected[i])).toBeLessThan(TOLERANCE));
    });

    it('renormalises over what top_p kept', () => {
      // softmax(LOGITS) ≈ 0.38, 0.14, 0.09, 0.05, 0.02, 0.23 (ids 0, 5 and 1 reach 0.7).
      const seen = frequencies(tokens(sampler({ topP: 0.7, seed: 3 }), DRAWS), LOGITS.length);
      const p = softmax(LOGITS);
      const keptMass = p[0] + p[5] + p[1];
      [0, 5, 1].forEach((i) => expect(Math.abs(seen[i] - p[i] / keptMass)).toBeLessThan(TOLERANCE));
      [2, 3, 4].forEach((i) => expect(seen[i]).toBe(0));
    });

    it.each<[Partial<SamplingOptions>, number[]]>([
      [{ topK: 2 }, [0, 5]],
      [{ topK: 3, temperature: 2 }, [0, 1, 5]],
      [{ topP: 0.5 }, [0, 5]],
      [{ minP: 0.3 }, [0, 1, 5]], // e^(1 − 2) ≈ 0.37 ≥ 0.3 > e^(0.5 − 2) ≈ 0.22
      [{ minP: 0.3, temperature: 2 }, [0, 1, 2, 3, 5]], // at T = 2: e^(−1) ≥ 0.3 > e^(−1.5)
      [{ topK: 3, topP: 0.6, minP: 0.5 }, [0, 5]],
    ])('with %j draws exactly from %j', (options, expected) => {
      const seen = frequencies(tokens(sampler({ ...options, seed: 11 }), 4000), LOGITS.length);
      const drawn = [...seen.keys()].filter((i) => seen[i] > 0);
      expect(drawn).toEqual(expected.sort());
    });
  });

  describe('seeds', () => {
    const options = { temperature: 1.5, topP: 0.95, topK: 5, seed: 42 };

    it('replays a seeded sequence, also when it runs in a batch with others', () => {
      const alone = tokens(sampler(options), 40);
      const batch = [sampler(options), sampler({ seed: 1 }), sampler({ topP: 0.5 }, { choice: 3 })];
      const interleaved: number[] = [];
      for (let step = 0; step < 40; step++) {
        batch.forEach((s, i) => {
          const token = s.next(Float32Array.from(LOGITS)).tokenId;
          if (i === 0) interleaved.push(token);
        });
      }
      expect(interleaved).toEqual(alone);
    });

    it('gives the choices of one request different streams', () => {
      const choices = [0, 1, 2].map((choice) => tokens(sampler(options, { choice }), 40).join());
      expect(new Set(choices).size).toBe(3);
      expect(tokens(sampler(options, { choice: 2 }), 40).join()).toBe(choices[2]);
    });

    it('draws a random seed when none is set', () => {
      const runs = [0, 1].map(() => tokens(sampler({ temperature: 2 }), 40).join());
      expect(runs[0]).not.toBe(runs[1]);
    });
  });

  describe('logit_bias', () => {
    it('never picks a token biased by −100, even the most likely one', () => {
      const s = sampler({ temperature: 2, seed: 5, logitBias: { 0: -100 } });
      expect(tokens(s, 5000)).not.toContain(0);
    });

    it('always picks a token biased by +100, even the least likely one', () => {
      const s = sampler({ temperature: 2, seed: 5, logitBias: { 4: 100 } });
      expect(new Set(tokens(s, 5000))).toEqual(new Set([4]));
    });
  });

  describe('penalties', () => {
    it('frequency_penalty counts every repeat: a flat row cycles through the tokens', () => {
      const s = sampler({ temperature: 0, frequencyPenalty: 1 }, { vocabSize: 3 });
      expect(tokens(s, 6, [0, 0, 0])).toEqual([0, 1, 2, 0, 1, 2]);
    });

    it('presence_penalty counts a token once, however often it was generated', () => {
      // Each of 0, 1, 2 is picked once (2 → 0.5, 1 → −0.5, 0.6 → −0.9); then the penalty stops
      // growing, so token 0 keeps winning where frequency_penalty would cycle on.
      const s = sampler({ temperature: 0, presencePenalty: 1.5 }, { vocabSize: 3 });
      expect(tokens(s, 6, [2, 1, 0.6])).toEqual([0, 1, 2, 0, 0, 0]);
    });

    it('repetition_penalty also counts prompt tokens', () => {
      const s = sampler({ temperature: 0, repetitionPenalty: 4 }, { promptIds: [0] });
      // 2 / 4 = 0.5 < 1.5: token 5 wins, then 1.5 / 4 < 1: token 1.
      expect(tokens(s, 2)).toEqual([5, 1]);
    });

    it('applies before logprobs are read (logprobs show the distribution the request shaped)', () => {
      const s = sampler({ temperature: 0, logitBias: { 4: 3.5 } }, { topLogprobs: 1 });
      const picked = s.next(Float32Array.from(LOGITS));
      expect(picked.tokenId).toBe(4);
      const biased = LOGITS.map((x, i) => (i === 4 ? x + 3.5 : x));
      expect(picked.logprob).toBeCloseTo(Math.log(softmax(biased)[4]), 6);
    });
  });

  describe('logprobs', () => {
    it('reports top_logprobs most likely first, consistent with the chosen logprob', () => {
      const s = sampler({ seed: 9 }, { topLogprobs: 20 });
      for (let step = 0; step < 50; step++) {
        const picked = s.next(Float32Array.from(LOGITS));
        expect(picked.top.map((t) => t.tokenId)).toEqual([0, 5, 1, 2, 3, 4]);
        const p = softmax(LOGITS);
        picked.top.forEach((t) => expect(t.logprob).toBeCloseTo(Math.log(p[t.tokenId]), 6));
        expect(picked.top.find((t) => t.tokenId === picked.tokenId)?.logprob).toBe(picked.logprob);
      }
    });

    it('reports the distribution before temperature and truncation', () => {
      const hot = sampler({ temperature: 2, topK: 1, seed: 1 }).next(Float32Array.from(LOGITS));
      expect(hot.tokenId).toBe(0);
      expect(hot.logprob).toBeCloseTo(Math.log(softmax(LOGITS)[0]), 6);
    });

    it('skips the logprob when the engine says it is not wanted', () => {
      const picked = sampler({}, { logprobs: false }).next(Float32Array.from(LOGITS));
      expect(picked.logprob).toBeNaN();
      expect(picked.top).toEqual([]);
    });
  });

  describe('constraint slot', () => {
    it('runs a per-sequence mask after logit_bias and tells it every picked token', () => {
      const accepted: number[] = [];
      const onlyOddIds: LogitsProcessor = {
        process: (row) => row.forEach((_, i) => i % 2 === 0 && (row[i] = -Infinity)),
        accept: (id) => accepted.push(id),
      };
      const s = sampler(
        { temperature: 2, seed: 2, logitBias: { 0: 100 } },
        { constraint: onlyOddIds, topLogprobs: 5 },
      );
      const picked = Array.from({ length: 200 }, () => s.next(Float32Array.from(LOGITS)));
      expect(picked.every((t) => t.tokenId % 2 === 1)).toBe(true);
      expect(accepted).toEqual(picked.map((t) => t.tokenId));
      expect(picked[0].top.map((t) => t.tokenId)).toEqual([5, 1, 3]);
    });
  });

  it.each([0, 1])('fails loudly at temperature %d when every token is banned', (temperature) => {
    const banAll: LogitsProcessor = { process: (row) => row.fill(-Infinity) };
    const s = sampler({ temperature }, { constraint: banAll });
    expect(() => s.next(Float32Array.from(LOGITS))).toThrow(/no token can be picked/);
  });

  it('refuses a row of the wrong length', () => {
    expect(() => sampler({}).next(new Float32Array(3))).toThrow(RangeError);
  });
});
