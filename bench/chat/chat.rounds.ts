// One concurrency level of the chat benchmark: warm every side up, then interleave the sides'
// rounds, rotating which goes first, each a closed-loop run of the same prompts. A round records
// each request's time to first token, its gaps between tokens, the output tokens per second of
// the whole round, CPU used and what other tenants of the machine took meanwhile.
import { roundBase, type RoundBase } from '../lib/bench.report';
import { runClosedLoop } from '../lib/closed-loop.driver';
import { assertNoFailures, rotation } from '../lib/interleaved.rounds';
import { quantile, round } from '../lib/latency.stats';
import type { RequestTrace } from '../lib/request.trace';
import { machineBusyMs } from '../lib/process-tree.sampler';
import { StackTelemetry, type StackSnapshot } from '../lib/stack.telemetry';
import type { BenchPrompt } from './chat.prompts';
import type { ChatSide, SideName, SideOutcome } from './chat.sides';

export interface ChatRound extends RoundBase<SideName> {
  readonly outputTokens: number;
  /** Output tokens of the round ÷ its wall time. */
  readonly tokensPerSec: number;
  readonly ttftMs: { p50: number; p99: number };
  readonly itlMs: { p50: number; p99: number };
  /** Requests whose prompt or output length was not the asked one (counted, not failed). */
  readonly lengthMismatches: number;
  /** CPU ms per output token: the bench process, plus the stack's processes for Tessera. */
  readonly cpuMsPerToken: number;
  /** Share of the machine other tenants used meanwhile. */
  readonly otherLoad: number;
}

/** Samples kept in memory across rounds for the level's pooled percentiles. */
export interface RoundSamples {
  readonly ttftMs: number[];
  readonly itlMs: number[];
  /**
   * Per request, tokens after the first ÷ the time from the first to the last: its decode rate.
   * Robust where a client reads several events in one socket read (gaps of ~0 then one long).
   */
  readonly decodeTokensPerSec: number[];
}

export interface LevelOutputs {
  /** side → prompt index → every text the side produced for it → the levels it came at. */
  readonly texts: Map<SideName, Map<number, Map<string, number[]>>>;
}

export interface ChatLevelPlan {
  readonly concurrency: number;
  readonly rounds: number;
  readonly requestsPerRound: number;
  readonly promptTokens: number;
  readonly outputTokens: number;
}

export interface ChatLevelContext {
  readonly prompts: readonly BenchPrompt[];
  /** The stack's processes (CPU of the Tessera sides); absent when no Tessera side runs. */
  readonly telemetry?: StackTelemetry;
  readonly outputs: LevelOutputs;
  readonly log: (line: string) => void;
}

/** The machine and this process only, when there is no stack to sample. */
function benchSnapshot(): StackSnapshot {
  const cpu = process.cpuUsage();
  return {
    gateway: null,
    service: null,
    processes: [],
    atMs: performance.now(),
    machineBusyMs: machineBusyMs(),
    benchCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/** When each token arrived: every event, or those the side marked as carrying tokens. */
function tokenTimes(trace: RequestTrace, outcome: SideOutcome | undefined): number[] {
  return outcome?.tokenEvents
    ? outcome.tokenEvents.map((position) => trace.eventMs[position])
    : [...trace.eventMs];
}

async function measure(
  context: ChatLevelContext,
  side: ChatSide,
  plan: ChatLevelPlan,
  requests: number,
  roundIndex: number,
  samples: RoundSamples,
): Promise<ChatRound> {
  const { prompts, outputs } = context;
  const outcomes = new Map<number, SideOutcome>();
  const isTessera = side.name.startsWith('tessera');
  const snapshot = () => context.telemetry?.snapshot(false) ?? benchSnapshot();
  const before = await snapshot();
  const run = await runClosedLoop({
    concurrency: plan.concurrency,
    requests,
    send: async (index, recorder) => {
      const outcome = await side.send(prompts[index % prompts.length], recorder);
      outcomes.set(index, outcome);
      if (outcome.text !== undefined) {
        const bySide = outputs.texts.get(side.name) ?? new Map<number, Map<string, number[]>>();
        outputs.texts.set(side.name, bySide);
        const texts = bySide.get(index % prompts.length) ?? new Map<string, number[]>();
        bySide.set(index % prompts.length, texts);
        const levels = texts.get(outcome.text) ?? [];
        if (!levels.includes(plan.concurrency))
          texts.set(outcome.text, [...levels, plan.concurrency]);
      }
    },
  });
  const after = await snapshot();
  const machine = StackTelemetry.usage(before, after);

  const ttft: number[] = [];
  const itl: number[] = [];
  const decodeRates: number[] = [];
  let outputTokens = 0;
  let lengthMismatches = 0;
  for (const trace of run.traces) {
    const outcome = outcomes.get(trace.index);
    if (trace.error !== undefined || !outcome) continue;
    const times = tokenTimes(trace, outcome);
    if (times.length > 0) ttft.push(times[0] - trace.startMs);
    for (let i = 1; i < times.length; i++) itl.push(times[i] - times[i - 1]);
    if (times.length > 1) {
      decodeRates.push(((times.length - 1) * 1000) / (times[times.length - 1] - times[0]));
    }
    outputTokens += outcome.completionTokens;
    if (
      outcome.completionTokens !== plan.outputTokens ||
      outcome.promptTokens !== prompts[trace.index % prompts.length].ids.length
    ) {
      lengthMismatches++;
    }
  }
  if (roundIndex >= 0) {
    samples.ttftMs.push(...ttft);
    samples.itlMs.push(...itl);
    samples.decodeTokensPerSec.push(...decodeRates);
  }
  const cpuMs = run.cpuMs + (isTessera ? machine.stackCpuMs : 0);
  return {
    ...roundBase(side.name, plan.concurrency, roundIndex, requests, run),
    outputTokens,
    tokensPerSec: round(outputTokens / (run.elapsedMs / 1000), 1),
    ttftMs: { p50: round(quantile(ttft, 0.5)), p99: round(quantile(ttft, 0.99)) },
    itlMs: { p50: round(quantile(itl, 0.5)), p99: round(quantile(itl, 0.99)) },
    lengthMismatches,
    cpuMsPerToken: round(cpuMs / Math.max(1, outputTokens)),
    otherLoad: round(machine.otherLoad, 3),
  };
}

/** Measures one level; returns its rounds (not the warm-up) and the pooled samples per side. */
export async function runChatLevel(
  context: ChatLevelContext,
  plan: ChatLevelPlan,
  sides: readonly ChatSide[],
): Promise<{ rounds: ChatRound[]; samples: Map<SideName, RoundSamples> }> {
  const samples = new Map<SideName, RoundSamples>(
    sides.map((side) => [side.name, { ttftMs: [], itlMs: [], decodeTokensPerSec: [] }]),
  );
  for (const side of sides) {
    await side.prepare?.(plan.concurrency);
    // Warm-up: connections, JIT, ORT arenas and llama.cpp's weight repacking.
    const warm = await measure(context, side, plan, plan.concurrency, -1, samples.get(side.name)!);
    assertNoFailures(`${side.name} c=${plan.concurrency} warm-up`, warm);
  }
  const rounds: ChatRound[] = [];
  for (let r = 0; r < plan.rounds; r++) {
    for (const side of rotation(sides, r)) {
      const record = await measure(
        context,
        side,
        plan,
        plan.requestsPerRound,
        r,
        samples.get(side.name)!,
      );
      assertNoFailures(`${side.name} c=${plan.concurrency}`, record);
      context.log(
        `  c=${plan.concurrency} round ${r + 1}/${plan.rounds} ${side.name}: ` +
          `${record.tokensPerSec} tok/s, TTFT p50 ${record.ttftMs.p50} ms, ITL p50 ${record.itlMs.p50} ms`,
      );
      rounds.push(record);
    }
  }
  return { rounds, samples };
}
