// The prefill half of a scheduler step: at most `prefill_chunk_tokens` prompt positions per
// step, so a long prompt delays running streams by at most one chunk per generated token. A
// prompt's last token is not prefilled: it is the sequence's first decode input, and that step
// gives its first token.
import type { DecoderSession } from './decoder.session';
import { KvBatch, type KvRowSource } from './kv.batch';
import type { ScheduledJob } from './scheduled-job.state';

/** What the scheduler does with a job once its prompt is in, or when its prefill fails. */
export interface PrefillOutcomes {
  /** The prompt is all in, in `from`: the job's choices join the decode batch. */
  readonly join: (job: ScheduledJob, from: KvRowSource) => void;
  readonly fail: (job: ScheduledJob, error: unknown) => void;
}

export class PromptPrefill {
  constructor(
    private readonly session: DecoderSession,
    private readonly chunkTokens: number,
    /** No run on a single row of a single position (see `SchedulerLimits.batchInvariant`). */
    private readonly neverAlone: boolean,
    private readonly outcomes: PrefillOutcomes,
  ) {}

  /**
   * The next chunk of the oldest admitted prompt (`prefilling`, in admission order), or — when
   * it fits whole — it and the prompts admitted after it that also fit, left-padded in one run
   * (rows × longest ≤ the chunk), so a burst of short requests costs one reading of the weights
   * instead of one each.
   */
  async step(prefilling: readonly ScheduledJob[]): Promise<void> {
    const pending = (job: ScheduledJob) => job.job.promptIds.length - 1 - prefilledOf(job);
    const first = prefilling[0];
    const pack = [first];
    let longest = pending(first);
    // A prompt with images is prefilled alone: its chunks carry image features.
    if (prefilledOf(first) === 0 && !first.job.images) {
      for (const next of prefilling.slice(1)) {
        if (next.job.images) break;
        const widest = Math.max(longest, pending(next));
        if (widest * (pack.length + 1) > this.chunkTokens) break;
        pack.push(next);
        longest = widest;
      }
    }
    const { join, fail } = this.outcomes;
    if (pack.length === 1) {
      await this.chunk(first).catch((error: unknown) => fail(first, error));
      return;
    }
    const batch = KvBatch.empty(this.session.shape, pack.length);
    try {
      // (One-token prompts have nothing to prefill.)
      if (longest > 0) {
        await this.session.prefillRows(
          batch,
          pack.map(({ job }) => job.promptIds.slice(0, -1)),
        );
      }
    } catch (error) {
      for (const job of pack) fail(job, error);
      return;
    }
    pack.forEach((job, row) => join(job, { batch, row }));
  }

  /** The next chunk of one prompt, or its next tile; once it is all in, the job joins. */
  private async chunk(scheduled: ScheduledJob): Promise<void> {
    const { job, state } = scheduled;
    if (state.name !== 'prefilling') return;
    const { cache, images } = state;
    if (images && !images.encoded) {
      // Its tiles first, one per step: a running stream waits at most one tile per token.
      await images.encodeNextTile();
      return;
    }
    const last = job.promptIds.length - 1;
    const end = this.chunkEnd(state.prefilled, last);
    if (end > state.prefilled) {
      const ids = job.promptIds.slice(state.prefilled, end);
      if (this.neverAlone && ids.length === 1 && !images) {
        // A prompt with one position to prefill: padded to two in the run.
        await this.session.prefillRows(cache, [ids], 2);
      } else {
        await this.session.prefill(cache, ids, images?.spliceFor(ids));
      }
    }
    state.prefilled = end;
    if (end === last && scheduled.state === state)
      this.outcomes.join(scheduled, { batch: cache, row: 0 });
  }

  /**
   * Where the chunk from `start` ends (`last`: the prompt's last position to prefill). Where no
   * run may be a single position (`neverAlone`), a chunk has two at least, and one that would
   * leave a single position for the next takes it too: only a prompt's first chunk can be a
   * single position, and that one is padded.
   */
  private chunkEnd(start: number, last: number): number {
    const chunk = this.neverAlone ? Math.max(2, this.chunkTokens) : this.chunkTokens;
    const end = Math.min(last, start + chunk);
    return this.neverAlone && last - end === 1 ? last : end;
  }
}

const prefilledOf = ({ state }: ScheduledJob): number =>
  state.name === 'prefilling' ? state.prefilled : 0;
