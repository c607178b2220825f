// Log-mel features of one 30 s window by transformers.js' WhisperFeatureExtractor (in the
// worker: the STFT of 480 000 samples is tens of milliseconds of CPU). The window is the audio
// from `seek`, the extractor pads it to 30 s; frames past the real audio are then set to 0, as
// openai-whisper and faster-whisper pad a window's log-mel (`pad_or_trim` of the mel segment),
// so the last window of a file sees what their models see.
import { HOP_SAMPLES, WINDOW_FRAMES } from './whisper.transcribe';

export interface WindowFeatures {
  /** [melBins, 3000] row-major. */
  readonly features: Float32Array;
  /** Frames of real audio (≤ 3000). */
  readonly frames: number;
}

export interface WhisperFeatures {
  window(audio: Float32Array, seek: number): Promise<WindowFeatures>;
}

/**
 * `padding`: 'mel' (default) zeroes the log-mel past the audio as openai-whisper and
 * faster-whisper do; 'audio' keeps the log-mel of the zero-padded audio, as transformers'
 * WhisperFeatureExtractor gives it (what transformers' generate and pipeline see).
 */
export async function whisperFeatures(
  preprocessorConfig: Record<string, unknown>,
  padding: 'mel' | 'audio' = 'mel',
): Promise<WhisperFeatures> {
  const { WhisperFeatureExtractor } = await import('@huggingface/transformers');
  const extractor = new WhisperFeatureExtractor(preprocessorConfig);
  return {
    async window(audio, seek) {
      const start = seek * HOP_SAMPLES;
      const slice = audio.subarray(start, start + WINDOW_FRAMES * HOP_SAMPLES);
      const frames = Math.min(WINDOW_FRAMES, Math.floor(audio.length / HOP_SAMPLES) - seek);
      const { input_features } = (await extractor(slice)) as {
        input_features: { data: Float32Array; dims: number[] };
      };
      const features = input_features.data;
      const total = input_features.dims[2];
      if (padding === 'mel' && frames < total)
        for (let bin = 0; bin < input_features.dims[1]; bin += 1)
          features.fill(0, bin * total + frames, (bin + 1) * total);
      return { features, frames };
    },
  };
}
