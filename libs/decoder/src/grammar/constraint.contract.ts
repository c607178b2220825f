// What the scheduler needs from the grammar engine, so it can be built and tested apart from it:
// per job, one constraint per choice, compiled (or found in the cache) before the job waits for
// admission.
import type { OutputConstraint } from '../decoder.protocol';
import type { LogitsProcessor } from '../sampling/logits-processor.contract';

/** How the job's grammar was obtained (reported in the job's result, counted as metrics). */
export interface GrammarCompileInfo {
  readonly cacheHit: boolean;
  /** Time spent compiling for this job (0 on a cache hit). */
  readonly compileMs: number;
}

/** One sequence's grammar state as a sampler stage. */
export interface SequenceConstraint extends LogitsProcessor {
  /**
   * Computes the mask of the next step (XGrammar's API is asynchronous); `process` applies it.
   * The scheduler calls it while the decode step runs, so the work overlaps ONNX Runtime's.
   */
  prepare(): Promise<void>;
  /** Frees the matcher (WASM memory); idempotent. */
  dispose(): void;
}

export interface ConstraintCompiler {
  /** `count` fresh constraints for `constraint`; rejects with GrammarCompileError. */
  constraints(
    constraint: OutputConstraint,
    count: number,
  ): Promise<{ readonly sequences: SequenceConstraint[]; readonly info: GrammarCompileInfo }>;
}
