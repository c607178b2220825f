// The continuous-batching loop of one worker (see docs/chat.md, "Scheduler and KV cache"). Each
// iteration: drop cancelled work, admit waiting jobs within the sequence and KV budgets (FIFO),
// re-form the batch if its membership changed, run ONE decode step for every active sequence,
// then at most one prefill chunk of the oldest admitted job, then yield to the event loop so new
// jobs and cancels arrive. A long prompt therefore delays running streams by at most one chunk
// per generated token, and a new request's first token comes from the decode step after its
// ⌈(prompt − 1) / chunk⌉ chunks. A job's lifecycle is its one state (scheduled-job.state.ts:
// queued → prefilling → decoding → ended); whatever throws while a job is in any state fails
// that job alone and gives back all it holds (`guard`, `fail`); an error no job owns fails
// every job held.
import type { JobContext } from '@tessera/runtime';
import type { ChatTokenizer } from '@tessera/text';
import type {
  DecoderEngineTypes,
  GenerateJob,
  GenerationUsage,
  OutputConstraint,
} from './decoder.protocol';
import type { DecoderSession } from './decoder.session';
import type {
  ConstraintCompiler,
  GrammarCompileInfo,
  SequenceConstraint,
} from './grammar/constraint.contract';
import { KvBatch, type KvRowSource } from './kv.batch';
import { PromptPrefill } from './prompt.prefill';
import { createSequenceSampler } from './sampling';
import { isDone, type JobState, type ScheduledJob, type Sequence } from './scheduled-job.state';
import { TokenEmitter } from './token.emitter';
import { PromptImageFeatures } from './vision/prompt-image.features';

export interface SchedulerLimits {
  /** Rows of the decode batch (one per choice). */
  readonly maxSequences: number;
  /** Sum of n × (prompt + max tokens) over admitted jobs. */
  readonly kvCacheTokens: number;
  readonly prefillChunkTokens: number;
  /**
   * On a graph whose kernels compute a lone row differently (`DecoderGraph.loneRowDiffers`),
   * run no step on a single row, so that a request's output does not depend on whether it ran
   * alone (docs/chat.md, "Batch invariance").
   */
  readonly batchInvariant: boolean;
}

export class ContinuousBatchScheduler {
  /** Every job from `run` until it ends, in arrival order (so admission order too). */
  private readonly jobs: ScheduledJob[] = [];
  private batch?: KvBatch;
  /** The batch's sequences, row by row (done ones stay until the batch is formed again). */
  private rows: Sequence[] = [];
  private readonly tokens: number[] = [];
  private looping = false;
  private readonly eos: ReadonlySet<number>;
  /** No run on a single row of a single position (see `SchedulerLimits.batchInvariant`). */
  private readonly neverAlone: boolean;
  private readonly prefill: PromptPrefill;

  constructor(
    private readonly session: DecoderSession,
    private readonly tokenizer: ChatTokenizer,
    private readonly limits: SchedulerLimits,
    eosTokenIds: readonly number[],
    private readonly vocabSize: number,
    /** The grammar engine, started on the first constrained job (absent: constraints refused). */
    private readonly grammar?: () => Promise<ConstraintCompiler>,
    /** Called after each step (decode, prefill chunk, tile): the worker's sign of progress. */
    private readonly onStep: () => void = () => undefined,
  ) {
    this.eos = new Set(eosTokenIds);
    this.neverAlone = session.graph.loneRowDiffers && limits.batchInvariant;
    this.prefill = new PromptPrefill(session, limits.prefillChunkTokens, this.neverAlone, {
      join: (job, from) => this.guard(job, () => this.join(job, from)),
      fail: (job, error) => this.fail(job, error),
    });
  }

  /** Sequences in the decode batch now (for tests and metrics). */
  get activeSequences(): number {
    return this.rows.filter((s) => !isDone(s)).length;
  }

  /** Sequences and KV tokens admitted jobs hold (for tests and metrics). */
  get reserved(): { readonly sequences: number; readonly tokens: number } {
    let sequences = 0;
    let tokens = 0;
    for (const held of this.jobs) {
      if (held.state.name === 'queued') continue;
      sequences += held.job.n;
      tokens += held.reserved;
    }
    return { sequences, tokens };
  }

  run(job: GenerateJob, context: JobContext<DecoderEngineTypes>): Promise<GenerationUsage> {
    if (job.promptIds.length === 0) return Promise.reject(new Error('the prompt has no tokens'));
    if (job.n > this.limits.maxSequences) {
      return Promise.reject(
        new RangeError(`n=${job.n} is more than max_sequences=${this.limits.maxSequences}`),
      );
    }
    if (!job.constraint) return this.enqueue(job, context);
    const { grammar } = this;
    if (!grammar) return Promise.reject(new Error('this engine has no grammar engine'));
    // Compiled (or found in the cache) before the job waits: a schema that cannot be compiled
    // fails this request alone, before it holds any KV budget.
    return grammar()
      .then((compiler) => compiler.constraints(job.constraint as OutputConstraint, job.n))
      .then(({ sequences, info }) => this.enqueue(job, context, sequences, info));
  }

  private enqueue(
    job: GenerateJob,
    context: JobContext<DecoderEngineTypes>,
    constraints?: SequenceConstraint[],
    grammar?: GrammarCompileInfo,
  ): Promise<GenerationUsage> {
    return new Promise((resolve, reject) => {
      const scheduled: ScheduledJob = {
        state: { name: 'queued' },
        job,
        context,
        reserved: job.n * (job.promptIds.length + job.maxTokens),
        constraints,
        resolve,
        reject,
      };
      this.jobs.push(scheduled);
      // The pool's stream passes events, not the job's result: the compile info goes as one.
      if (grammar) this.guard(scheduled, () => context.emit({ type: 'grammar', ...grammar }));
      if (!this.looping) {
        this.looping = true;
        void this.loop();
      }
    });
  }

  private async loop(): Promise<void> {
    try {
      // Jobs that arrive together (worker messages already queued) are admitted together.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.jobs.length + this.rows.length) {
        this.dropCancelled();
        this.admit();
        this.reform();
        if (this.batch) await this.decodeStep(this.batch);
        const prefilling = this.jobs.filter((job) => job.state.name === 'prefilling');
        if (prefilling.length > 0) {
          await this.prefill.step(prefilling);
          this.onStep();
        }
        // Lets cancels and new jobs (worker messages) in before the next step.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      // An error no job owns (re-forming the batch): every job fails, the state resets.
      this.failEverything(error);
    } finally {
      this.looping = false;
    }
  }

  /** Runs one job's part of a step: what it throws fails that job alone. */
  private guard(job: ScheduledJob, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.fail(job, error);
    }
  }

  private failEverything(error: unknown): void {
    for (const job of [...this.jobs]) this.fail(job, error);
    this.rows = [];
    this.batch = undefined;
  }

  private dropCancelled(): void {
    for (const job of [...this.jobs]) {
      if (job.context.signal.aborted) this.fail(job, job.context.signal.reason);
    }
  }

  /** FIFO: the oldest waiting job goes first, and nothing overtakes it. */
  private admit(): void {
    for (const next of this.jobs.filter((job) => job.state.name === 'queued')) {
      const { sequences, tokens } = this.reserved;
      const idle = sequences === 0;
      const fits =
        sequences + next.job.n <= this.limits.maxSequences &&
        tokens + next.reserved <= this.limits.kvCacheTokens;
      // A job larger than the whole KV budget still runs, alone, rather than never.
      if (!fits && !idle) return;
      this.guard(next, () => (next.state = this.prefillingState(next.job)));
    }
  }

  private prefillingState({ images }: GenerateJob): JobState {
    const { vision } = this.session;
    if (images && !vision)
      throw new Error('a job with images for a model without a vision encoder');
    return {
      name: 'prefilling',
      cache: this.session.newSequence(),
      images: images && vision && new PromptImageFeatures(vision, images),
      prefilled: 0,
    };
  }

  /** Builds a new batch when sequences joined or left; the only time caches are copied. */
  private reform(): void {
    const joining = this.jobs.flatMap((job) =>
      job.state.name === 'decoding' && job.state.from ? [{ job, ...job.state }] : [],
    );
    if (joining.length === 0 && !this.rows.some(isDone)) return;
    const kept = this.rows.flatMap((sequence, row): [Sequence, KvRowSource][] =>
      isDone(sequence) || !this.batch ? [] : [[sequence, { batch: this.batch, row }]],
    );
    for (const { job, sequences, from } of joining) {
      for (const sequence of sequences) if (!isDone(sequence) && from) kept.push([sequence, from]);
      // In the batch now: its prompt's cache is let go with the state that held it.
      job.state = { name: 'decoding', sequences };
    }
    this.rows = kept.map(([sequence]) => sequence);
    const sources = kept.map(([, row]) => row);
    if (sources.length === 1 && this.neverAlone) {
      // A lone sequence decodes beside a copy of itself, whose logits are dropped: every row
      // then takes the kernels' M ≥ 2 path, as in any batch.
      this.batch = KvBatch.assemble(this.session.shape, [sources[0], sources[0]]);
    } else if (sources.length === 1 && sources[0].batch.rows === 1) {
      // A lone sequence (e.g. the only request): its own cache becomes the batch, uncopied.
      this.batch = sources[0].batch;
    } else {
      this.batch = sources.length > 0 ? KvBatch.assemble(this.session.shape, sources) : undefined;
    }
  }

  private async decodeStep(batch: KvBatch): Promise<void> {
    const rows = this.rows;
    // Rows beyond the sequences (a lone sequence's copy) repeat the first one's input.
    this.tokens.length = batch.rows;
    for (let row = 0; row < batch.rows; row++) this.tokens[row] = (rows[row] ?? rows[0]).next;
    // The grammar masks of this step are computed while ONNX Runtime runs the step (off this
    // thread); the outcome is captured so a failed step is never an unhandled rejection.
    const decoding = this.session.decode(batch, this.tokens).then(
      (logits) => ({ logits }),
      (error: unknown) => ({ error }),
    );
    await this.prepareConstraints(rows);
    const step = await decoding;
    this.onStep(); // before the step's tokens go out: whoever sees one sees the step counted
    if ('error' in step) {
      for (const sequence of rows) this.fail(sequence.owner, step.error);
      return;
    }
    const { logits } = step;
    const vocab = logits.length / batch.rows;
    for (let row = 0; row < rows.length; row++) {
      const sequence = rows[row];
      if (isDone(sequence)) continue;
      // e.g. a constraint that bans every token, or a failed emit: that request fails alone.
      this.guard(sequence.owner, () => {
        const sampled = sequence.sampler.next(logits.subarray(row * vocab, (row + 1) * vocab));
        if (sequence.output.accept(sampled)) this.finished(sequence);
        else sequence.next = sampled.tokenId;
      });
    }
  }

  /** Each constrained row's next-token mask; a row whose grammar fails fails its request. */
  private async prepareConstraints(rows: readonly Sequence[]): Promise<void> {
    for (const sequence of rows) {
      if (isDone(sequence) || !sequence.constraint) continue;
      await sequence.constraint
        .prepare()
        .catch((error: unknown) => this.fail(sequence.owner, error));
    }
  }

  /** A prefilled job's n choices join the batch: one row each, all from the same cache row. */
  private join(scheduled: ScheduledJob, from: KvRowSource): void {
    const { job, constraints, context } = scheduled;
    const sequences = Array.from({ length: job.n }, (_, choice): Sequence => {
      const constraint = constraints?.[choice];
      return {
        owner: scheduled,
        sampler: createSequenceSampler({
          options: job.sampling,
          promptIds: job.promptIds,
          vocabSize: this.vocabSize,
          choice,
          topLogprobs: job.logprobs ? job.topLogprobs : 0,
          logprobs: job.logprobs,
          constraint,
        }),
        constraint,
        output: new TokenEmitter({
          choice,
          job,
          tokenizer: this.tokenizer,
          eos: this.eos,
          emit: (event) => context.emit(event),
        }),
        next: job.promptIds[job.promptIds.length - 1],
      };
    });
    scheduled.state = { name: 'decoding', sequences, from };
  }

  /** A choice has ended (its finish emitted); the job ends with its last one. */
  private finished(sequence: Sequence): void {
    sequence.constraint?.dispose();
    const { owner } = sequence;
    if (owner.state.name !== 'decoding') return;
    const { sequences } = owner.state;
    if (!sequences.every((s) => s.output.finished)) return;
    const completionTokens = sequences.reduce((sum, s) => sum + s.output.generated, 0);
    owner.resolve({ promptTokens: owner.job.promptIds.length, completionTokens });
    this.end(owner);
  }

  /** A cancelled or failed job: its sequences leave at the next re-form, its budget is freed. */
  private fail(job: ScheduledJob, error: unknown): void {
    if (job.state.name === 'ended') return;
    this.end(job);
    job.reject(error);
  }

  /**
   * Gives back what the job holds: its budget and caches go with its state, its sequences leave
   * the batch at the next re-form.
   */
  private end(job: ScheduledJob): void {
    job.state = { name: 'ended' };
    this.jobs.splice(this.jobs.indexOf(job), 1);
    // Matchers live in WASM memory, which no garbage collector frees.
    for (const constraint of job.constraints ?? []) constraint.dispose();
  }
}
