import type { SideLevelSummary, StepTimes } from './chat.report';
import type { SideName } from './chat.sides';
import { chatTargets, greedyGate, greedyGates } from './chat.targets';

function summary(
  side: SideName,
  concurrency: number,
  tokensPerSec: number,
  decodeTokensPerSec: number,
): SideLevelSummary {
  return {
    side,
    concurrency,
    tokensPerSec,
    tokensPerSecPerRound: [tokensPerSec, tokensPerSec],
    ttftMs: { p50: 1, p99: 1 },
    itlMs: { p50: 1, p99: 1 },
    decodeTokensPerSec,
    bandwidthFraction: 0.5,
    cpuMsPerToken: 1,
    otherLoad: 0,
    lengthMismatches: 0,
  };
}

const byName = (targets: ReturnType<typeof chatTargets>, fragment: string) => {
  const found = targets.find((t) => t.name.includes(fragment));
  if (!found) throw new Error(`no target named like ${fragment}`);
  return found;
};

describe('chat targets', () => {
  const summaries = [
    summary('bare-fp32', 1, 17, 18),
    summary('tessera-fp32', 1, 16, 17),
    summary('transformers-fp32', 1, 12, 13),
    summary('tessera-fp32', 8, 40, 6),
    summary('tessera-int4', 8, 50, 7),
    summary('llama.cpp', 8, 60, 8),
  ];
  const steps: StepTimes[] = [
    { stepper: 'engine', batch: 8, msByContext: { '64': 100, '512': 110, '2048': 140 } },
  ];

  it('reads c=1 decode against the bare loop and c=8 against the one-at-a-time reference', () => {
    const targets = chatTargets(summaries, steps, {});
    const c1 = byName(targets, 'tessera-fp32 / bare-fp32');
    expect(c1.value).toBeCloseTo(17 / 18, 3);
    expect(c1.pass).toBe(true);
    const c8 = byName(targets, 'tessera-fp32 / transformers-fp32');
    expect(c8.value).toBeCloseTo(40 / 12, 3);
    expect(c8.pass).toBe(true);
    expect(c8.context).toContain('(at c=1)');
    const llama = byName(targets, 'tessera-int4 / llama.cpp');
    expect(llama.value).toBeCloseTo(50 / 60, 3);
    expect(llama.pass).toBe(false);
    expect(llama.context).toContain('per round');
  });

  it('says N/A for what was not measured', () => {
    const targets = chatTargets(summaries, [], {});
    const int4 = byName(targets, 'tessera-int4 / bare-int4');
    expect(int4).toMatchObject({ value: null, pass: null });
    expect(int4.context).toContain('not measured');
    expect(byName(targets, 'decode step')).toMatchObject({ value: null, pass: null });
  });

  it('judges the step time at 2048 against 64', () => {
    expect(byName(chatTargets(summaries, steps, {}), 'decode step')).toMatchObject({
      value: 1.4,
      pass: true,
    });
    const slow: StepTimes[] = [
      { stepper: 'engine', batch: 8, msByContext: { '64': 100, '2048': 151 } },
    ];
    expect(byName(chatTargets(summaries, slow, {}), 'decode step').pass).toBe(false);
  });

  it('counts prompts where any batched output differs from the reference', () => {
    const reference = new Map([
      [0, new Map([['Paris', [1]]])],
      [1, new Map([['Rome', [1]]])],
    ]);
    const candidate = new Map([
      [0, new Map([['Paris', [1, 8]]])],
      [
        1,
        new Map([
          ['Rome', [1]],
          ['Roma', [8, 16]],
        ]),
      ],
      [2, new Map([['Oslo', [8]]])],
    ]);
    expect(greedyGate('bare-fp32 (alone)', reference, candidate)).toEqual({
      reference: 'bare-fp32 (alone)',
      compared: 2,
      mismatched: 1,
      examples: [
        {
          prompt: 1,
          reference: 'Rome',
          candidates: [{ text: 'Roma', concurrency: [8, 16] }],
          firstDifferenceAt: 3,
        },
      ],
    });
    const gate = byName(
      chatTargets(summaries, steps, {
        fp32: { reference: 'bare-fp32 (alone)', compared: 2, mismatched: 1 },
      }),
      'greedy output of tessera-fp32',
    );
    expect(gate).toMatchObject({ value: 1, pass: false });
  });
  it('judges int4 against its own output alone, saying how the bare batch-1 loop compares', () => {
    const texts = new Map([
      ['bare-int4', new Map([[0, new Map([['Paris.', [1]]])]])],
      [
        'tessera-int4',
        new Map([
          [0, new Map([['Paris!', [1, 8]]])],
          [
            1,
            new Map([
              ['Rome', [1]],
              ['Roma', [8]],
            ]),
          ],
        ]),
      ],
    ] as const);
    const { int4 } = greedyGates(texts);
    expect(int4).toMatchObject({
      reference: 'tessera-int4 alone (c=1)',
      compared: 2,
      mismatched: 1,
      note: 'bare-int4 (batch 1) differs on 1 of 1 prompts',
    });
    const gate = byName(chatTargets(summaries, steps, { int4 }), 'greedy output of tessera-int4');
    expect(gate.name).toContain('equals tessera-int4 alone (c=1)');
    expect(gate).toMatchObject({ value: 1, pass: false });
    expect(gate.context).toContain('bare-int4 (batch 1) differs on 1 of 1 prompts');
  });
});
