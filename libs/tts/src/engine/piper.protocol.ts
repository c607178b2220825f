// What the Piper engine speaks across the thread boundary (see @tessera/runtime's
// engine.contract.ts): one job per voice run (a sentence, or part of an over-long one), so that
// one request's sentences interleave with other requests' in the pool's FIFO queue instead of
// holding a worker for a whole text. Phonemes are made before, by the phonemiser's own thread.

export interface PiperEngineOptions {
  /** The voice graph, absolute. */
  readonly onnxFile: string;
}

export interface SynthesizeJob {
  readonly ids: readonly number[];
  /** `sid`, for a multi-speaker voice only. */
  readonly speakerId?: number;
  /** [noise_scale, length_scale, noise_w] as the graph's `scales` input takes them. */
  readonly scales: readonly [number, number, number];
}

export interface SynthesizeResult {
  /** The run's audio at the voice's rate, peak-normalised and in int16 as piper writes it. */
  readonly pcm: Int16Array;
}

export interface PiperEngineInfo {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
}

export interface PiperEngineTypes {
  readonly options: PiperEngineOptions;
  readonly info: PiperEngineInfo;
  readonly request: SynthesizeJob;
  readonly result: SynthesizeResult;
  readonly chunk: never;
}
