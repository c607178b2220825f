// The engine's batched decode step, without its scheduler: @tessera/decoder's DecoderSession
// (the object the worker's continuous-batching loop drives) on the same file. One sequence is
// prefilled to the asked past length in the engine's own chunks, its cache is placed as every
// row of a batch (KvBatch.assemble, as when sequences join), and then steady-state decode steps
// are timed — each one feeds the previous step's present outputs back as they are, as the
// scheduler does between membership changes. Past lengths are visited in increasing order so
// one prefill serves them all.
import { DecoderSession, KvBatch } from '@tessera/decoder';
import { median } from '../lib/latency.stats';
import type { BatchedStepper } from './decode-step.probe';

/** The engine's default prefill chunk (decoder model option `prefill_chunk_tokens`). */
const PREFILL_CHUNK = 256;

export class EngineStepper implements BatchedStepper {
  private sequence: KvBatch;
  private prefilled = 0;

  private constructor(
    readonly name: string,
    private readonly session: DecoderSession,
    /** Ids to prefill with (any real text: the values do not change a step's cost). */
    private readonly fillIds: readonly number[],
  ) {
    this.sequence = session.newSequence();
  }

  static async load(
    name: string,
    modelDir: string,
    onnxFile: string,
    threads: number,
    fillIds: readonly number[],
  ): Promise<EngineStepper> {
    const session = await DecoderSession.load(modelDir, onnxFile, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    return new EngineStepper(name, session, fillIds);
  }

  async decodeStepMs(batch: number, pastLength: number, steps: number): Promise<number> {
    if (pastLength < this.prefilled) {
      throw new Error(`past lengths must increase: ${pastLength} after ${this.prefilled}`);
    }
    while (this.prefilled < pastLength) {
      const chunk = Math.min(PREFILL_CHUNK, pastLength - this.prefilled);
      const ids = Array.from(
        { length: chunk },
        (_, i) => this.fillIds[(this.prefilled + i) % this.fillIds.length],
      );
      await this.session.prefill(this.sequence, ids);
      this.prefilled += chunk;
    }
    const rows = Array.from({ length: batch }, () => ({ batch: this.sequence, row: 0 }));
    const cache = KvBatch.assemble(this.session.shape, rows);
    const tokens = new Array<number>(batch).fill(this.fillIds[0]);
    await this.session.decode(cache, tokens);
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const start = performance.now();
      await this.session.decode(cache, tokens);
      times.push(performance.now() - start);
    }
    return median(times);
  }

  release(): Promise<void> {
    return this.session.release();
  }
}
