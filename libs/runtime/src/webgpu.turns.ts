// One process, one WebGPU device: ONNX Runtime's WebGPU provider opens a single Dawn device
// that every webgpu session of the process shares, and that device is not safe to drive from two
// threads at once (two workers running tiny-bert on webgpu at the same time crashed the process
// with a segmentation fault or failed with std::bad_alloc). So the calls on webgpu sessions (open,
// run, release) take turns across every worker thread of every pool, through one Int32 in shared
// memory that the main thread hands to each worker. Within a worker, calls queue on a promise
// first, so a thread never waits for a turn it holds itself (an engine with several jobs in
// flight); between threads the wait is Atomics.waitAsync, which leaves the worker's event loop
// free (cancels still arrive). The cell holds the holder's thread id, so the pool can give back
// the turn of a worker that died or was terminated holding it.
import { threadId } from 'node:worker_threads';

/** Atomics.waitAsync (ES2024, in Node since 16), which the ES2023 lib does not declare. */
type WaitAsync = (
  cell: Int32Array,
  index: number,
  value: number,
) => { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

const FREE = 0;

/** The process's turn cell, made once on the main thread and handed to every ORT worker. */
export const PROCESS_WEBGPU_TURN = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);

/** Gives back the turn if the thread `holder` (a worker's threadId) holds it: it has ended. */
export function freeWebGpuTurnOf(holder: number, turn = PROCESS_WEBGPU_TURN): void {
  const cell = new Int32Array(turn);
  if (Atomics.compareExchange(cell, 0, holder, FREE) === holder) Atomics.notify(cell, 0, 1);
}

export class WebGpuTurns {
  private readonly cell: Int32Array;
  /** This thread's calls, one after the other. */
  private queue: Promise<unknown> = Promise.resolve();

  /** `holder`: what the cell holds while this thread has the turn (its thread id, never 0). */
  constructor(
    turn: SharedArrayBuffer,
    private readonly holder: number = threadId,
  ) {
    if (holder === FREE) throw new RangeError('the turn holder must not be 0');
    this.cell = new Int32Array(turn);
  }

  /** Runs `call` once this thread and then the process have their turn; always gives it back. */
  take<T>(call: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(async () => {
      await this.acquire();
      try {
        return await call();
      } finally {
        this.release();
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async acquire(): Promise<void> {
    for (;;) {
      const held = Atomics.compareExchange(this.cell, 0, FREE, this.holder);
      if (held === FREE) return;
      const wait = waitAsync(this.cell, 0, held);
      if (!wait.async) continue;
      // A pending waitAsync does not keep a thread alive: a worker still opening its engine
      // (no message listener yet) would otherwise end while it waits.
      const alive = setInterval(() => undefined, 60_000);
      try {
        await wait.value;
      } finally {
        clearInterval(alive);
      }
    }
  }

  private release(): void {
    freeWebGpuTurnOf(this.holder, this.cell.buffer as SharedArrayBuffer);
  }
}
