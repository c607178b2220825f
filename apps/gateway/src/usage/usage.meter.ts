// What one request has used so far, filled in by its controller as usage becomes known, and
// billed at most once: when the answer is complete (just before its last byte is written), or,
// for a stream the client left, for what was produced until then. A request that fails is
// discarded unbilled. The meter knows nothing of where a bill goes (usage.ledger.ts).
import { NO_USAGE, type UsageAmounts, type UsageRecord } from './usage.record';

export type UsageOutcome = UsageRecord['outcome'];

export class UsageMeter {
  private readonly amounts: UsageAmounts = { ...NO_USAGE };
  /** Whether the route measures usage at all (GET /v1/models does not). */
  private metered = false;
  private settled = false;
  /** Told once the request's usage is settled: after its bill, or when it was discarded. */
  private readonly ended: (() => void)[] = [];

  constructor(private readonly bill: (amounts: UsageAmounts, outcome: UsageOutcome) => void) {}

  /** Sets amounts to what is now known of the whole request (totals, not increments). */
  measure(amounts: Partial<UsageAmounts>): void {
    this.metered = true;
    Object.assign(this.amounts, amounts);
  }

  /** Adds to the amounts (a stream's progress, before its totals are reported). */
  add(amounts: Partial<UsageAmounts>): void {
    this.metered = true;
    for (const [name, value] of Object.entries(amounts) as [keyof UsageAmounts, number][]) {
      this.amounts[name] += value;
    }
  }

  get billable(): boolean {
    return this.metered && !this.settled;
  }

  /** Bills what was measured, once; later calls (and discarded meters) do nothing. */
  settle(outcome: UsageOutcome): void {
    if (!this.billable) return;
    this.settled = true;
    this.bill({ ...this.amounts }, outcome);
    this.end();
  }

  /** The request failed: it is never billed. */
  discard(): void {
    if (this.settled) return;
    this.settled = true;
    this.end();
  }

  /** Runs `listener` once the usage is settled, billed or discarded (a reservation's release). */
  onEnd(listener: () => void): void {
    this.ended.push(listener);
  }

  private end(): void {
    for (const listener of this.ended.splice(0)) listener();
  }
}
