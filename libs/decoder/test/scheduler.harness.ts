// What the scheduler specs share: the tiny-llama session and tokenizer, a scheduler with test
// limits, a job from one user message, and a started job whose events are recorded (also in one
// log of every job's events, tagged with the job's name, in the order emitted).
import { loadChatTokenizer, type ChatTokenizer } from '@tessera/text';
import type { JobContext } from '@tessera/runtime';
import { ContinuousBatchScheduler, type SchedulerLimits } from '../src/continuous-batch.scheduler';
import { readDecoderConfig } from '../src/decoder.config';
import type {
  DecoderEngineTypes,
  GenerationEvent,
  GenerateJob,
  GenerationUsage,
} from '../src/decoder.protocol';
import { DecoderSession } from '../src/decoder.session';
import type { ConstraintCompiler } from '../src/grammar/constraint.contract';
import { DEFAULT_SAMPLING_OPTIONS } from '../src/sampling';
import { TINY_LLAMA } from './tiny-models';

export const GREEDY = { ...DEFAULT_SAMPLING_OPTIONS, temperature: 0 };

export interface StartedJob {
  readonly events: GenerationEvent[];
  readonly done: Promise<GenerationUsage>;
  readonly controller: AbortController;
}

export class SchedulerHarness {
  /** Every event of every job, in the order emitted, as `name:type`. */
  readonly log: string[] = [];

  private constructor(
    readonly session: DecoderSession,
    readonly tokenizer: ChatTokenizer,
    readonly eos: readonly number[],
  ) {}

  static async load(): Promise<SchedulerHarness> {
    return new SchedulerHarness(
      await DecoderSession.load(TINY_LLAMA),
      await loadChatTokenizer(TINY_LLAMA),
      (await readDecoderConfig(TINY_LLAMA)).eosTokenIds,
    );
  }

  scheduler(
    limits: Partial<SchedulerLimits> = {},
    grammar?: () => Promise<ConstraintCompiler>,
    on: DecoderSession = this.session,
  ): ContinuousBatchScheduler {
    return new ContinuousBatchScheduler(
      on,
      this.tokenizer,
      {
        maxSequences: 8,
        kvCacheTokens: 100_000,
        prefillChunkTokens: 256,
        batchInvariant: true,
        ...limits,
      },
      this.eos,
      49152,
      grammar,
    );
  }

  job(content: string, extra: Partial<GenerateJob> = {}): GenerateJob {
    return {
      promptIds: this.tokenizer.encodeChat([{ role: 'user', content }]),
      sampling: GREEDY,
      n: 1,
      maxTokens: 12,
      stop: [],
      logprobs: true,
      topLogprobs: 0,
      ...extra,
    };
  }

  /** `emit`: what the job's context does with an event after recording it (e.g. throw). */
  start(
    target: ContinuousBatchScheduler,
    request: GenerateJob,
    name = '',
    emit?: JobContext<DecoderEngineTypes>['emit'],
  ): StartedJob {
    const controller = new AbortController();
    const events: GenerationEvent[] = [];
    const done = target.run(request, {
      signal: controller.signal,
      emit: (event, transfer) => {
        events.push(event);
        this.log.push(`${name}:${event.type}`);
        emit?.(event, transfer);
      },
      transfer: () => undefined,
    });
    done.catch(() => undefined);
    return { events, done, controller };
  }
}

/** The text a job streamed for one choice. */
export const text = (events: GenerationEvent[], choice = 0) =>
  events.map((e) => (e.type === 'delta' && e.choice === choice ? e.text : '')).join('');

export const logprobs = (events: GenerationEvent[]) =>
  events.flatMap((e) => (e.type === 'delta' ? (e.logprobs ?? []) : [])).map((l) => l.logprob);

/** Yields to the event loop (the scheduler's steps) until `condition` holds. */
export const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
};
