// A test engine (for whisper.features.spec.ts): one window's log-mel by the engine's ONNX
// Runtime graph and by transformers.js' WhisperFeatureExtractor, the reference it replaces, in a
// pool worker (ONNX Runtime's tensors cannot be made inside jest's sandbox).
import type { EngineFactory } from '@tessera/runtime';
import { whisperFeatures } from '../src/engine/whisper.features';
import { HOP_SAMPLES, WINDOW_FRAMES } from '../src/engine/whisper.transcribe';

export interface FeaturesTypes {
  readonly options: {
    readonly preprocessor: Record<string, unknown>;
    readonly padding: 'mel' | 'audio';
  };
  readonly info: null;
  readonly request: { readonly audio: Float32Array; readonly seek: number };
  readonly result: {
    readonly ours: Float32Array;
    readonly reference: Float32Array;
    readonly frames: number;
    readonly oursMs: number;
    readonly referenceMs: number;
  };
  readonly chunk: never;
}

export const createEngine: EngineFactory<FeaturesTypes> = async (init) => {
  const { preprocessor, padding } = init.options;
  const features = await whisperFeatures(preprocessor, init.sessions, padding);
  const { WhisperFeatureExtractor } = await import('@huggingface/transformers');
  const extractor = new WhisperFeatureExtractor(preprocessor);
  return {
    info: null,
    async run({ audio, seek }, job) {
      let started = performance.now();
      const ours = await features.window(audio, seek);
      const oursMs = performance.now() - started;
      // What whisper.features.ts did before the graph: the extractor on the window's samples,
      // then (with 'mel' padding) the frames past the audio set to 0.
      started = performance.now();
      const start = seek * HOP_SAMPLES;
      const { input_features } = (await extractor(
        audio.subarray(start, start + WINDOW_FRAMES * HOP_SAMPLES),
      )) as { input_features: { data: Float32Array; dims: number[] } };
      const referenceMs = performance.now() - started;
      const reference = input_features.data;
      const [, bins, total] = input_features.dims;
      if (padding === 'mel')
        for (let bin = 0; bin < bins; bin += 1)
          reference.fill(0, bin * total + ours.frames, (bin + 1) * total);
      job.transfer(ours.features.buffer as ArrayBuffer, reference.buffer as ArrayBuffer);
      return { ours: ours.features, reference, frames: ours.frames, oursMs, referenceMs };
    },
  };
};
