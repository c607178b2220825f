// The chat engine's speed targets, judged on one run's summaries — every ratio is
// against a reference measured in the same run:
//   - c=1 decode tokens/s ≥ 0.9 × the bare onnxruntime-node loop on the same file (a);
//   - c=8 aggregate output tokens/s ≥ 3 × transformers.js generate() one request at a time (b);
//   - c=8 aggregate output tokens/s of the int4 file ≥ 1 × llama.cpp on the GGUF (c);
//   - the batch-8 decode step at past length 2048 ≤ 1.5 × the step at 64 (the engine's stepper);
// each read for the plain-attention files and for the GroupQueryAttention ones (gqa-*);
// and the gate: Tessera's greedy output (batched with others) equals its output alone — the bare
// loop's for fp32; for int4, Tessera's own at c=1, because ONNX Runtime's MatMulNBits computes
// a lone row (the bare loop's batch 1) on another path than rows of a batch, and Tessera never
// runs a lone row (docs/chat.md, "Batch invariance").
import type { TargetResult } from '../lib/bench.report';
import { round } from '../lib/latency.stats';
import type { SideLevelSummary, StepTimes } from './chat.report';
import type { SideName } from './chat.sides';

export const ENGINE_STEPPER = 'engine';
export const ENGINE_GQA_STEPPER = 'engine, GroupQueryAttention';

/** The files whose Tessera side has a greedy gate (`tessera-<file>`). */
export type GatedFile = 'fp32' | 'int4' | 'gqa-int4';

export interface GreedyGate {
  /** What the candidate's texts are compared with, e.g. `bare-fp32 (alone)`. */
  readonly reference: string;
  /** Said beside the result (e.g. how the int4 output compares with the bare loop's). */
  readonly note?: string;
  /** Prompts whose output both sides produced. */
  readonly compared: number;
  /** Of those, prompts where any of the candidate's outputs differed from the reference's. */
  readonly mismatched: number;
  /** The first few differing prompts, with where the texts part (for the result file). */
  readonly examples?: Array<{
    prompt: number;
    reference: string;
    /** Each differing text with the concurrency levels it came at. */
    candidates: Array<{ text: string; concurrency: number[] }>;
    firstDifferenceAt: number;
  }>;
}

const EXAMPLES = 3;

/** Index of the first character where two texts differ. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** candidate ÷ reference on one metric at one level (per-round ratios where both ran there). */
export function ratioTarget(
  summaries: readonly SideLevelSummary[],
  spec: {
    name: string;
    concurrency: number;
    candidate: SideName;
    reference: SideName;
    /** Where the reference is read, when not at the same level (a one-at-a-time reference). */
    referenceConcurrency?: number;
    metric: 'decodeTokensPerSec' | 'tokensPerSec';
    goal: number;
  },
): TargetResult {
  const find = (side: SideName, concurrency: number) =>
    summaries.find((s) => s.side === side && s.concurrency === concurrency);
  const referenceLevel = spec.referenceConcurrency ?? spec.concurrency;
  const candidate = find(spec.candidate, spec.concurrency);
  const reference = find(spec.reference, referenceLevel);
  const base = { name: spec.name, goal: `>= ${spec.goal}` };
  if (!candidate || !reference) {
    const missing = [!candidate && spec.candidate, !reference && spec.reference].filter(Boolean);
    return {
      ...base,
      value: null,
      pass: null,
      context: `${missing.join(' and ')} not measured`,
    };
  }
  const value = round(candidate[spec.metric] / reference[spec.metric], 3);
  const perRound =
    spec.metric === 'tokensPerSec' && referenceLevel === spec.concurrency
      ? candidate.tokensPerSecPerRound.map((t, i) =>
          round(t / (reference.tokensPerSecPerRound[i] ?? NaN), 2),
        )
      : undefined;
  return {
    ...base,
    value,
    pass: value >= spec.goal,
    context:
      `${spec.candidate} ${candidate[spec.metric]} vs ${spec.reference}` +
      (referenceLevel === spec.concurrency ? '' : ` (at c=${referenceLevel})`) +
      ` ${reference[spec.metric]} tok/s` +
      (perRound ? ` (per round ×${perRound.join(', ×')})` : ''),
  };
}

function stepTarget(steps: readonly StepTimes[], stepper: string): TargetResult {
  const engine = steps.find((s) => s.stepper === stepper);
  const base = {
    name: `batch-${engine?.batch ?? 8} decode step, past 2048 / past 64 (${stepper})`,
    goal: '<= 1.5',
  };
  const at64 = engine?.msByContext['64'];
  const at2048 = engine?.msByContext['2048'];
  if (at64 === undefined || at2048 === undefined) {
    return {
      ...base,
      value: null,
      pass: null,
      context: engine
        ? 'past 64 and 2048 were not both measured'
        : "the engine's step was not measured",
    };
  }
  const value = round(at2048 / at64, 2);
  return { ...base, value, pass: value <= 1.5, context: `${at64} ms at 64, ${at2048} ms at 2048` };
}

export function chatTargets(
  summaries: readonly SideLevelSummary[],
  steps: readonly StepTimes[],
  gates: Partial<Record<GatedFile, GreedyGate>>,
): TargetResult[] {
  const gateTarget = (dtype: GatedFile): TargetResult => {
    const gate = gates[dtype];
    return {
      name: `greedy output of tessera-${dtype} (batched) equals ${gate?.reference ?? 'its output alone'}, prompts differing`,
      value: gate?.mismatched ?? null,
      goal: '= 0',
      pass: gate && gate.compared > 0 ? gate.mismatched === 0 : null,
      context: !gate
        ? 'not measured'
        : `${gate.compared} prompts compared` +
          (gate.examples
            ? `; prompt ${gate.examples[0].prompt} parts at character ` +
              `${gate.examples[0].firstDifferenceAt} at c=` +
              `${gate.examples[0].candidates.flatMap((c) => c.concurrency).join(',')} (texts in the result file)`
            : '') +
          (gate.note ? `; ${gate.note}` : ''),
    };
  };
  return [
    ratioTarget(summaries, {
      name: 'c=1 decode tokens/s, tessera-fp32 / bare-fp32 (a)',
      concurrency: 1,
      candidate: 'tessera-fp32',
      reference: 'bare-fp32',
      metric: 'decodeTokensPerSec',
      goal: 0.9,
    }),
    ratioTarget(summaries, {
      name: 'c=1 decode tokens/s, tessera-int4 / bare-int4 (a, int4 file)',
      concurrency: 1,
      candidate: 'tessera-int4',
      reference: 'bare-int4',
      metric: 'decodeTokensPerSec',
      goal: 0.9,
    }),
    ratioTarget(summaries, {
      name: 'c=8 aggregate output tokens/s, tessera-fp32 / transformers-fp32 one at a time (b)',
      concurrency: 8,
      candidate: 'tessera-fp32',
      reference: 'transformers-fp32',
      referenceConcurrency: 1,
      metric: 'tokensPerSec',
      goal: 3,
    }),
    ...(['tessera-int4', 'tessera-gqa-int4'] as const).map((candidate) =>
      ratioTarget(summaries, {
        name: `c=8 aggregate output tokens/s, ${candidate} / llama.cpp (c)`,
        concurrency: 8,
        candidate,
        reference: 'llama.cpp',
        metric: 'tokensPerSec',
        goal: 1,
      }),
    ),
    stepTarget(steps, ENGINE_STEPPER),
    stepTarget(steps, ENGINE_GQA_STEPPER),
    gateTarget('fp32'),
    gateTarget('int4'),
    gateTarget('gqa-int4'),
  ];
}

/** Per prompt, each text a side produced with the concurrency levels it came at. */
export type PromptTexts = ReadonlyMap<number, ReadonlyMap<string, number[]>>;

/** The texts a side produced alone (at concurrency 1). */
export function aloneTexts(texts: PromptTexts | undefined): PromptTexts | undefined {
  if (!texts) return undefined;
  const alone = new Map<number, Map<string, number[]>>();
  for (const [prompt, byText] of texts) {
    const single = [...byText].filter(([, levels]) => levels.includes(1));
    if (single.length > 0) alone.set(prompt, new Map(single.map(([text]) => [text, [1]])));
  }
  return alone;
}

/**
 * Compares every text the candidate produced for a prompt with the reference's (`label` names
 * the reference in the target's line).
 */
export function greedyGate(
  label: string,
  reference: PromptTexts | undefined,
  candidate: PromptTexts | undefined,
): GreedyGate | undefined {
  if (!reference || !candidate) return undefined;
  let compared = 0;
  let mismatched = 0;
  const examples: NonNullable<GreedyGate['examples']> = [];
  for (const [prompt, texts] of candidate) {
    const expected = reference.get(prompt);
    if (!expected || expected.size !== 1) continue;
    compared++;
    const [want] = expected.keys();
    const wrong = [...texts].filter(([text]) => text !== want);
    if (wrong.length === 0) continue;
    mismatched++;
    if (examples.length < EXAMPLES) {
      const at = Math.min(...wrong.map(([text]) => firstDifference(text, want)));
      const candidates = wrong.map(([text, concurrency]) => ({ text, concurrency }));
      examples.push({ prompt, reference: want, candidates, firstDifferenceAt: at });
    }
  }
  return { reference: label, compared, mismatched, ...(examples.length > 0 && { examples }) };
}

/**
 * The gates of a run: tessera-fp32 against the bare fp32 loop alone; the int4 sides against
 * their own output alone (c=1), tessera-int4 with how it compares with the bare int4 loop
 * (batch 1, the kernels' lone-row path) as a note.
 */
export function greedyGates(
  texts: ReadonlyMap<SideName, PromptTexts>,
): Partial<Record<GatedFile, GreedyGate>> {
  const own = (side: SideName) =>
    greedyGate(`${side} alone (c=1)`, aloneTexts(texts.get(side)), texts.get(side));
  const int4 = own('tessera-int4');
  const bare = greedyGate('bare-int4', texts.get('bare-int4'), texts.get('tessera-int4'));
  return {
    fp32: greedyGate('bare-fp32 (alone)', texts.get('bare-fp32'), texts.get('tessera-fp32')),
    int4: int4 && {
      ...int4,
      ...(bare && {
        note: `bare-int4 (batch 1) differs on ${bare.mismatched} of ${bare.compared} prompts`,
      }),
    },
    'gqa-int4': own('tessera-gqa-int4'),
  };
}
