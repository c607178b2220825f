// Waiting in tests for something another part of the process does (a span ends, a handler sees
// its cancellation). The time limits bound liveness only; nothing here measures speed.

export interface WaitOptions {
  timeoutMs?: number;
  pollMs?: number;
}

/** Resolves once `condition` holds; rejects after `timeoutMs`. */
export async function until(
  condition: () => boolean,
  { timeoutMs = 10_000, pollMs = 10 }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The value `read` settles at: the first that two readings `pollMs` apart agree on. */
export async function settledValue(
  read: () => number,
  { timeoutMs = 30_000, pollMs = 250 }: WaitOptions = {},
): Promise<number> {
  let last = Number.NaN;
  await until(
    () => {
      const now = read();
      const settled = now === last;
      last = now;
      return settled;
    },
    { timeoutMs, pollMs },
  );
  return last;
}
