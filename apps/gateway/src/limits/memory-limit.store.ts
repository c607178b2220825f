// The buckets in this process: the default, when no Redis is configured. Each gateway replica
// then enforces a key's limits on its own (N replicas let a key through up to N times its limit).
import type { Dimension } from './rate-limit.dimensions';
import { decide, type Admission, type BucketCheck, type LimitStore } from './limit.store';
import { levelAt, msUntilFull, type BucketState } from './token-bucket';

export class MemoryLimitStore implements LimitStore {
  /** At most one per configured key and budget: a full bucket is dropped (absent = full). */
  private readonly buckets = new Map<string, BucketState>();

  constructor(private readonly now: () => number = Date.now) {}

  take(keyId: string, checks: BucketCheck[]): Promise<Admission> {
    const atMs = this.now();
    const keys = checks.map((check) => bucketOf(keyId, check.dimension));
    const levels = checks.map((check, index) =>
      levelAt(this.buckets.get(keys[index]), check.limit, atMs),
    );
    const admitted = decide(levels, checks);
    if (admitted) {
      checks.forEach((check, index) => {
        if (check.cost === 0) return;
        // A refund (negative cost) fills no bucket past its limit.
        levels[index] = Math.min(check.limit, levels[index] - check.cost);
        if (msUntilFull(levels[index], check.limit) === 0) this.buckets.delete(keys[index]);
        else this.buckets.set(keys[index], { level: levels[index], atMs });
      });
    }
    return Promise.resolve({
      admitted,
      levels: checks.map((check, index) => ({ check, level: levels[index] })),
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const bucketOf = (keyId: string, dimension: Dimension) => `${keyId}\u0000${dimension}`;
