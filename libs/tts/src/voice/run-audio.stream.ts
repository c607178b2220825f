// A text's voice runs as a stream of audio, each run a job of the voice's worker pool. The next
// run is queued as the current one is handed over, so it is synthesised while the caller encodes
// this one; never more than one is queued, so a request does not hold the queue ahead of
// others'. Stopping early — the caller leaves the loop, or the signal aborts — cancels the queued
// run and starts no other: synthesis stops at the next sentence. Each run is timed from the
// moment a worker takes it to its result, its wait in the queue left out, so that a caller can
// measure the voice's rate of work.
import type { OrtJobOptions } from '@tessera/runtime';
import type { RunVoicing } from '../piper-voice';

export interface RunAudio {
  /** int16 samples at the voice's rate. */
  readonly pcm: Int16Array;
  /** Phoneme ids the run fed the voice (BOS, PAD and EOS included). */
  readonly ids: number;
  /** Seconds the run took in its worker (its wait in the voice's queue not included). */
  readonly seconds: number;
}

/** What the stream needs of a voice (PiperVoice). */
export interface RunSynthesizer {
  synthesize(
    ids: readonly number[],
    voicing: RunVoicing,
    options?: OrtJobOptions,
  ): Promise<Int16Array>;
}

export async function* runAudio(
  voice: RunSynthesizer,
  runs: readonly (readonly number[])[],
  voicing: RunVoicing,
  signal?: AbortSignal,
): AsyncGenerator<RunAudio> {
  const stop = new AbortController();
  const bounds = { signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal };
  const start = (k: number) => {
    let started = performance.now();
    const pending = voice
      .synthesize(runs[k], voicing, { ...bounds, onStart: () => (started = performance.now()) })
      // Timed when the result arrives, not when the caller comes back for it.
      .then((pcm) => ({ pcm, seconds: (performance.now() - started) / 1000 }));
    // Observed here, so a run abandoned by `stop` is no unhandled rejection.
    pending.catch(() => undefined);
    return pending;
  };
  let pending = runs.length > 0 ? start(0) : undefined;
  try {
    for (let k = 0; k < runs.length; k++) {
      const { pcm, seconds } = await pending!;
      pending = k + 1 < runs.length ? start(k + 1) : undefined;
      yield { pcm, ids: runs[k].length, seconds };
    }
  } finally {
    stop.abort();
  }
}
