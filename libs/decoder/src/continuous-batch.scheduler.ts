// The continuous-batching loop of one worker (see docs/chat.md, "Scheduler and KV cache"). Each
// iteration: drop cancelled work, admit waiting jobs within the sequence and KV budgets (FIFO),
// re-form the batch if its membership changed, run ONE decode step for every active sequence,
// then at most one prefill chunk of the oldest admitted job, then yield to the event loop so new
// jobs and cancels arrive. A long prompt therefore delays running streams by at most one chunk
// per generated token, and a new request's first token comes from the decode step after its
// ⌈(prompt − 1) / chunk⌉ chunks. Whatever throws while a job is in any state fails that job alone
// and gives back all it holds (`guard`, `fail`); an error no job owns fails every job held.
import type { JobContext } from '@tessera/runtime';
import type { ChatTokenizer, SequenceDetokenizer } from '@tessera/text';
import type {
  DecoderEngineTypes,
  FinishReason,
  GenerateJob,
  ImageTiles,
  GenerationUsage,
  OutputConstraint,
  TokenLogprob,
} from './decoder.protocol';
import type { DecoderSession } from './decoder.session';
import type {
  ConstraintCompiler,
  GrammarCompileInfo,
  SequenceConstraint,
} from './grammar/constraint.contract';
import { KvBatch, type KvRowSource } from './kv.batch';
import type { SampledToken, SequenceSampler } from './sampling/sampler.contract';
import { createSequenceSampler } from './sampling';
import type { ImageSplice } from './vision/vision.session';

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

/** Where a job is: waiting for budget, its prompt being prefilled, in the batch, or over. */
type JobState = 'queued' | 'prefilling' | 'decoding' | 'ended';

interface ScheduledJob {
  state: JobState;
  readonly job: GenerateJob;
  readonly context: JobContext<DecoderEngineTypes>;
  /** KV tokens the job holds from admission until it ends. */
  readonly reserved: number;
  readonly resolve: (usage: GenerationUsage) => void;
  readonly reject: (error: unknown) => void;
  readonly sequences: Sequence[];
  /** One grammar state per choice when the job has a constraint (compiled before admission). */
  readonly constraints?: SequenceConstraint[];
  /** The prompt's cache while it is prefilled, chunk by chunk. */
  cache?: KvBatch;
  prefilled: number;
  /** A prompt with images: the vision encoder's features of its tiles so far, in order. */
  tileFeatures?: Float32Array[];
  /** All of them in one buffer once every tile is encoded (prompt order of the image tokens). */
  features?: Float32Array;
  /** Image tokens of the prompt already prefilled (feature rows used). */
  imageTokensPrefilled: number;
  open: number;
  completionTokens: number;
}

interface Sequence {
  readonly owner: ScheduledJob;
  readonly choice: number;
  readonly sampler: SequenceSampler;
  readonly constraint?: SequenceConstraint;
  readonly detokenizer: SequenceDetokenizer;
  /** Logprobs of tokens whose text is still held back by the detokenizer. */
  readonly pending: TokenLogprob[];
  /** The token to feed at the next step. */
  next: number;
  generated: number;
  /** Tokens generated since the last delta (their text held back, or none yet). */
  unreported: number;
  done: boolean;
}

/** A prefilled prompt waiting to enter the batch: one row per choice still running. */
interface Joining {
  /** Its prompt's cache is row `row` of `cache`. */
  readonly cache: KvBatch;
  readonly row: number;
  readonly sequences: Sequence[];
}

export class ContinuousBatchScheduler {
  /** Every job from `run` until it ends, whatever its state: none can be lost between lists. */
  private readonly held = new Set<ScheduledJob>();
  private readonly waiting: ScheduledJob[] = [];
  private readonly prefilling: ScheduledJob[] = [];
  private joining: Joining[] = [];
  private batch?: KvBatch;
  private rows: Sequence[] = [];
  private readonly tokens: number[] = [];
  private reservedTokens = 0;
  private reservedSequences = 0;
  private looping = false;
  private readonly eos: ReadonlySet<number>;
  /** No run on a single row of a single position (see `SchedulerLimits.batchInvariant`). */
  private readonly neverAlone: boolean;

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
  }

  /** Sequences in the decode batch now (for tests and metrics). */
  get activeSequences(): number {
    return this.rows.filter((s) => !s.done).length;
  }

  /** Sequences and KV tokens admitted jobs hold (for tests and metrics). */
  get reserved(): { readonly sequences: number; readonly tokens: number } {
    return { sequences: this.reservedSequences, tokens: this.reservedTokens };
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
        state: 'queued',
        job,
        context,
        reserved: job.n * (job.promptIds.length + job.maxTokens),
        resolve,
        reject,
        sequences: [],
        constraints,
        prefilled: 0,
        imageTokensPrefilled: 0,
        open: job.n,
        completionTokens: 0,
      };
      this.held.add(scheduled);
      this.waiting.push(scheduled);
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
      while (
        this.waiting.length +
        this.prefilling.length +
        this.joining.length +
        this.rows.length
      ) {
        this.dropCancelled();
        this.admit();
        this.reform();
        if (this.batch) await this.decodeStep(this.batch);
        if (this.prefilling.length > 0) {
          await this.prefillStep();
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
    for (const job of [...this.held]) this.fail(job, error);
    this.joining = [];
    this.rows = [];
    this.batch = undefined;
  }

  private dropCancelled(): void {
    for (const job of [...this.held]) {
      if (job.context.signal.aborted) this.fail(job, job.context.signal.reason);
    }
  }

  /** FIFO: the oldest waiting job goes first, and nothing overtakes it. */
  private admit(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0];
      const idle = this.reservedSequences === 0;
      const fits =
        this.reservedSequences + next.job.n <= this.limits.maxSequences &&
        this.reservedTokens + next.reserved <= this.limits.kvCacheTokens;
      // A job larger than the whole KV budget still runs, alone, rather than never.
      if (!fits && !idle) return;
      this.waiting.shift();
      this.reservedSequences += next.job.n;
      this.reservedTokens += next.reserved;
      next.state = 'prefilling';
      this.prefilling.push(next);
      this.guard(next, () => (next.cache = this.session.newSequence()));
    }
  }

  /** Builds a new batch when sequences joined or left; the only time caches are copied. */
  private reform(): void {
    if (this.joining.length === 0 && this.rows.every((s) => !s.done)) return;
    const kept = this.rows.flatMap((sequence, row): [Sequence, KvRowSource][] =>
      sequence.done || !this.batch ? [] : [[sequence, { batch: this.batch, row }]],
    );
    for (const { cache, row, sequences } of this.joining) {
      for (const sequence of sequences) {
        if (!sequence.done) kept.push([sequence, { batch: cache, row }]);
      }
    }
    this.joining = [];
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
      if (sequence.done) continue;
      // e.g. a constraint that bans every token, or a failed emit: that request fails alone.
      this.guard(sequence.owner, () =>
        this.accept(
          sequence,
          sequence.sampler.next(logits.subarray(row * vocab, (row + 1) * vocab)),
        ),
      );
    }
  }

  /** Each constrained row's next-token mask; a row whose grammar fails fails its request. */
  private async prepareConstraints(rows: readonly Sequence[]): Promise<void> {
    for (const sequence of rows) {
      if (sequence.done || !sequence.constraint) continue;
      await sequence.constraint
        .prepare()
        .catch((error: unknown) => this.fail(sequence.owner, error));
    }
  }

  /**
   * Prefills at most `prefill_chunk_tokens` prompt positions: the next chunk of the oldest
   * admitted prompt, or — when it fits whole — it and the prompts admitted after it that also
   * fit, left-padded in one run (rows × longest ≤ the chunk), so a burst of short requests
   * costs one reading of the weights instead of one each. A prompt's last token is not
   * prefilled: it is the sequence's first decode input, and that step gives its first token.
   */
  private async prefillStep(): Promise<void> {
    const budget = this.limits.prefillChunkTokens;
    const pending = (job: ScheduledJob) => job.job.promptIds.length - 1 - job.prefilled;
    const first = this.prefilling[0];
    const pack = [first];
    let longest = pending(first);
    // A prompt with images is prefilled alone: its chunks carry image features.
    if (first.prefilled === 0 && !first.job.images) {
      for (const next of this.prefilling.slice(1)) {
        if (next.job.images) break;
        const widest = Math.max(longest, pending(next));
        if (widest * (pack.length + 1) > budget) break;
        pack.push(next);
        longest = widest;
      }
    }
    if (pack.length === 1) {
      await this.prefillChunk(first).catch((error: unknown) => this.fail(first, error));
      return;
    }
    const cache = KvBatch.empty(this.session.shape, pack.length);
    try {
      // (One-token prompts have nothing to prefill.)
      if (longest > 0) {
        await this.session.prefillRows(
          cache,
          pack.map(({ job }) => job.promptIds.slice(0, -1)),
        );
      }
    } catch (error) {
      for (const job of pack) this.fail(job, error);
      return;
    }
    pack.forEach((job, row) => this.guard(job, () => this.join(job, cache, row)));
  }

  /** The next chunk of one prompt, or its next tile; once it is all in, the job joins the batch. */
  private async prefillChunk(scheduled: ScheduledJob): Promise<void> {
    const { job } = scheduled;
    const cache = scheduled.cache as KvBatch;
    const last = job.promptIds.length - 1;
    if (job.images && !scheduled.features) {
      // Its tiles first, one per step: a running stream waits at most one tile per token.
      await this.encodeTile(scheduled, job.images);
      return;
    }
    const end = this.chunkEnd(scheduled.prefilled, last);
    if (end > scheduled.prefilled) {
      const ids = job.promptIds.slice(scheduled.prefilled, end);
      if (this.neverAlone && ids.length === 1 && !job.images) {
        // A prompt with one position to prefill: padded to two in the run.
        await this.session.prefillRows(cache, [ids], 2);
      } else {
        await this.session.prefill(cache, ids, this.imageSplice(scheduled));
      }
      if (job.images) {
        const imageToken = this.session.vision?.imageTokenId;
        scheduled.imageTokensPrefilled += ids.filter((id) => id === imageToken).length;
      }
    }
    scheduled.prefilled = end;
    if (end === last) this.join(scheduled, cache, 0);
  }

  /**
   * Where the chunk from `start` ends (`last`: the prompt's last position to prefill). Where no
   * run may be a single position (`neverAlone`), a chunk has two at least, and one that would
   * leave a single position for the next takes it too: only a prompt's first chunk can be a
   * single position, and that one is padded.
   */
  private chunkEnd(start: number, last: number): number {
    const chunk = this.neverAlone
      ? Math.max(2, this.limits.prefillChunkTokens)
      : this.limits.prefillChunkTokens;
    const end = Math.min(last, start + chunk);
    return this.neverAlone && last - end === 1 ? last : end;
  }

  /** The next tile of a prompt with images through the vision encoder. */
  private async encodeTile(scheduled: ScheduledJob, images: ImageTiles): Promise<void> {
    const vision = this.session.vision;
    if (!vision) throw new Error('a job with images for a model without a vision encoder');
    const tiles = (scheduled.tileFeatures ??= []);
    tiles.push(await vision.tileFeatures(images, tiles.length));
    if (tiles.length === images.tiles) {
      // One buffer for the splice, in tile order (= the order of the prompt's image tokens).
      const all = new Float32Array(tiles.reduce((n, f) => n + f.length, 0));
      let at = 0;
      for (const part of tiles) {
        all.set(part, at);
        at += part.length;
      }
      scheduled.features = all;
      scheduled.tileFeatures = undefined;
    }
  }

  /** Where the next chunk of a prompt with images starts in its features. */
  private imageSplice(scheduled: ScheduledJob): ImageSplice | undefined {
    if (!scheduled.job.images || !scheduled.features) return undefined;
    return { features: scheduled.features, before: scheduled.imageTokensPrefilled };
  }

  /** A prefilled job's n choices join the batch: one row each, all from the same cache row. */
  private join(scheduled: ScheduledJob, cache: KvBatch, row: number): void {
    const { job } = scheduled;
    this.prefilling.splice(this.prefilling.indexOf(scheduled), 1);
    scheduled.state = 'decoding';
    scheduled.prefilled = job.promptIds.length - 1;
    scheduled.cache = undefined;
    scheduled.features = undefined;
    scheduled.tileFeatures = undefined;
    for (let choice = 0; choice < job.n; choice++) {
      scheduled.sequences.push({
        owner: scheduled,
        choice,
        sampler: createSequenceSampler({
          options: job.sampling,
          promptIds: job.promptIds,
          vocabSize: this.vocabSize,
          choice,
          topLogprobs: job.logprobs ? job.topLogprobs : 0,
          logprobs: job.logprobs,
          constraint: scheduled.constraints?.[choice],
        }),
        constraint: scheduled.constraints?.[choice],
        detokenizer: this.tokenizer.detokenizer(job.stop),
        pending: [],
        next: job.promptIds[job.promptIds.length - 1],
        generated: 0,
        unreported: 0,
        done: false,
      });
    }
    this.joining.push({ cache, row, sequences: scheduled.sequences });
  }

  /** A sampled token: end of sequence, a stop string, the length limit, or text to stream. */
  private accept(sequence: Sequence, sampled: SampledToken): void {
    const { owner } = sequence;
    sequence.generated++;
    sequence.unreported++;
    if (this.eos.has(sampled.tokenId)) {
      // What the detokenizer held back is not a stop string, so it is text.
      this.emitText(sequence, sequence.detokenizer.flush());
      this.finish(sequence, 'stop');
      return;
    }
    if (owner.job.logprobs) sequence.pending.push(this.logprob(sampled));
    const { text, stopped } = sequence.detokenizer.push(sampled.tokenId);
    if (stopped) {
      this.emitText(sequence, text);
      this.finish(sequence, 'stop');
    } else if (sequence.generated >= owner.job.maxTokens) {
      this.emitText(sequence, text + sequence.detokenizer.flush());
      this.finish(sequence, 'length');
    } else {
      this.emitText(sequence, text);
      sequence.next = sampled.tokenId;
    }
  }

  private logprob(sampled: SampledToken): TokenLogprob {
    return {
      ...this.tokenizer.tokenInfo(sampled.tokenId),
      logprob: sampled.logprob,
      topLogprobs: sampled.top.map((top) => ({
        ...this.tokenizer.tokenInfo(top.tokenId),
        logprob: top.logprob,
      })),
    };
  }

  /** Text with the logprobs of the tokens that made it (held-back tokens wait for their text). */
  private emitText(sequence: Sequence, text: string): void {
    if (text === '') return;
    const logprobs = sequence.owner.job.logprobs ? sequence.pending.splice(0) : undefined;
    const tokens = sequence.unreported;
    sequence.unreported = 0;
    sequence.owner.context.emit({ type: 'delta', choice: sequence.choice, text, logprobs, tokens });
  }

  private finish(sequence: Sequence, reason: FinishReason): void {
    sequence.done = true;
    sequence.constraint?.dispose();
    const { owner } = sequence;
    owner.context.emit({
      type: 'finish',
      choice: sequence.choice,
      reason,
      completionTokens: sequence.generated,
    });
    owner.completionTokens += sequence.generated;
    if (--owner.open === 0) {
      owner.resolve({
        promptTokens: owner.job.promptIds.length,
        completionTokens: owner.completionTokens,
      });
      this.end(owner);
    }
  }

  /** A cancelled or failed job: its sequences leave at the next re-form, its budget is freed. */
  private fail(job: ScheduledJob, error: unknown): void {
    if (job.state === 'ended') return;
    for (const sequence of job.sequences) sequence.done = true;
    for (const queue of [this.waiting, this.prefilling]) {
      const at = queue.indexOf(job);
      if (at >= 0) queue.splice(at, 1);
    }
    this.end(job);
    job.reject(error);
  }

  /** Gives back what the job holds: its budget first, so nothing after can keep it. */
  private end(job: ScheduledJob): void {
    const admitted = job.state !== 'queued';
    job.state = 'ended';
    this.held.delete(job);
    if (admitted) {
      this.reservedSequences -= job.job.n;
      this.reservedTokens -= job.reserved;
    }
    job.cache = undefined;
    job.features = undefined;
    job.tileFeatures = undefined;
    // Matchers live in WASM memory, which no garbage collector frees.
    for (const constraint of job.constraints ?? []) constraint.dispose();
  }
}
