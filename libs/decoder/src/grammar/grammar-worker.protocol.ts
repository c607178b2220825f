// The messages between a model's grammar pool (grammar-worker.pool.ts, on the scheduler's
// thread) and one grammar worker (grammar.worker.ts). The worker owns everything XGrammar made —
// compiled grammars and matchers cannot leave the WASM instance that made them — so the pool
// refers to matchers by number and asks for each step's mask by message.
import type { OutputConstraint } from '../decoder.protocol';
import type { GrammarCompileInfo } from './constraint.contract';

/** `workerData` of a grammar worker. */
export interface GrammarWorkerData {
  readonly modelDir: string;
  /** Rows of the model's logits (may exceed the tokenizer's vocabulary). */
  readonly vocabSize: number;
  readonly eosTokenIds: readonly number[];
}

export type GrammarRequest =
  | {
      /**
       * `count` matchers for `constraint`; with `compile` false only from a grammar already
       * compiled here (else the answer is 'miss' and nothing is compiled).
       */
      readonly type: 'matchers';
      readonly id: number;
      readonly constraint: OutputConstraint;
      readonly count: number;
      readonly compile: boolean;
    }
  | {
      /** Accepts the tokens picked since the last mask, then gives the next mask. */
      readonly type: 'mask';
      readonly id: number;
      readonly matcher: number;
      readonly accepted: readonly number[];
    }
  | { readonly type: 'dispose'; readonly matchers: readonly number[] };

export type GrammarReply =
  | { readonly type: 'ready'; readonly heapBytes: number }
  | {
      readonly type: 'matchers';
      readonly id: number;
      readonly matchers: readonly number[];
      readonly info: GrammarCompileInfo;
      readonly heapBytes: number;
    }
  | { readonly type: 'miss'; readonly id: number }
  /** Bit `id % 32` of word `id / 32` set = token allowed (XGrammar's bitmask, transferred). */
  | { readonly type: 'mask'; readonly id: number; readonly mask: Int32Array }
  | {
      readonly type: 'error';
      readonly id: number;
      readonly name: string;
      readonly message: string;
    };
