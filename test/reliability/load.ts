// Closed-loop load: `concurrency` clients per capability, each sending its next request as soon
// as the last one answered, until the time is up (or `stop` is called). Every outcome is kept
// (small records: tens of thousands at most), so callers can count and look up request ids.
import { send, type Capability, type Client, type Outcome, type OutcomeKind } from './capabilities';

export class Load {
  readonly outcomes: Outcome[] = [];
  private stopped = false;
  private readonly running: Promise<void>[] = [];

  constructor(private readonly client: Client) {}

  /** Starts the clients; `done` resolves once every client has finished its last request. */
  start(mix: Partial<Record<Capability, number>>, durationMs: number): this {
    const until = Date.now() + durationMs;
    for (const [capability, concurrency] of Object.entries(mix) as [Capability, number][]) {
      for (let i = 0; i < concurrency; i++) {
        this.running.push(
          (async () => {
            while (!this.stopped && Date.now() < until) {
              const outcome = await send(capability, this.client);
              this.outcomes.push(outcome);
              // A refused or failed request is retried after a pause, as a client would, rather
              // than in a tight loop that only measures how fast errors come back.
              if (outcome.kind !== 'ok') await new Promise((resolve) => setTimeout(resolve, 200));
            }
          })(),
        );
      }
    }
    return this;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }

  get done(): Promise<void> {
    return Promise.all(this.running).then(() => undefined);
  }
}

/** Outcomes counted per capability and kind, e.g. `{chat: {ok: 812, '503': 3}}`. */
export function tally(
  outcomes: readonly Outcome[],
): Partial<Record<Capability, Partial<Record<OutcomeKind, number>>>> {
  const counts: Partial<Record<Capability, Partial<Record<OutcomeKind, number>>>> = {};
  for (const { capability, kind } of outcomes) {
    const row = (counts[capability] ??= {});
    row[kind] = (row[kind] ?? 0) + 1;
  }
  return counts;
}

/** The outcomes that were not `ok`, first few per kind, for a failure message. */
export function failures(outcomes: readonly Outcome[], perKind = 3): Outcome[] {
  const seen = new Map<string, number>();
  return outcomes.filter((outcome) => {
    if (outcome.kind === 'ok') return false;
    const key = `${outcome.capability}:${outcome.kind}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    return seen.get(key)! <= perKind;
  });
}
