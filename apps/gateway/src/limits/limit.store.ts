// Where the buckets live: in this process (memory-limit.store.ts) or in Redis, shared by every
// gateway replica (redis-limit.store.ts). Both answer with bucket levels; what follows from a
// level (admission, waits, headers) is token-bucket.ts's, the same for both.
import type { Dimension } from './rate-limit.dimensions';
import { admits } from './token-bucket';

/** One budget a request is checked against. */
export interface BucketCheck {
  dimension: Dimension;
  /** Per minute. */
  limit: number;
  /**
   * Taken when admitted: 1 for requests; for a usage budget 0 at admission (only its level is
   * checked), the estimate when the body is known (a reservation), the difference between what
   * was billed and what was reserved afterwards. Negative gives back; no bucket exceeds its limit.
   */
  cost: number;
  /** False for a budget only reported in headers (the tokens on a speech route). */
  gates: boolean;
}

export interface BucketLevel {
  check: BucketCheck;
  /** After the cost was taken, when admitted. */
  level: number;
}

export interface Admission {
  admitted: boolean;
  levels: BucketLevel[];
}

export interface LimitStore {
  /**
   * Refills each budget to now, checks every gating one and, only when all admit, takes each
   * one's cost: atomically, so that concurrent requests (on any replica sharing the store) cannot
   * overdraw a budget. A billed amount is a take that does not gate: it always goes through and
   * may leave the level below zero.
   */
  take(keyId: string, checks: BucketCheck[]): Promise<Admission>;
  close(): Promise<void>;
}

/** The rule both stores apply, over levels already refilled to now. */
export function decide(levels: number[], checks: BucketCheck[]): boolean {
  return checks.every((check, index) => !check.gates || admits(levels[index], check.cost));
}
