// Log-mel features of one 30 s window, as transformers.js' WhisperFeatureExtractor computes them
// (the audio from `seek` zero-padded to 30 s, centred frames with reflect padding, Hann window,
// power spectrum, mel filters, log10, floor at max − 8, (x + 4) / 4), but with the DFT and the
// filters as one small ONNX Runtime graph (whisper.logmel.graph.ts) on the model's session
// options, in the worker: framing stays here (copies), the arithmetic is two GEMMs. The
// extractor is still what gives the window and the filters (its own config.mel_filters, or the
// bank it computes), so 80- and 128-bin models get exactly its constants.
//
// Frames past the real audio are then set to 0, as openai-whisper and faster-whisper pad a
// window's log-mel (`pad_or_trim` of the mel segment), so the last window of a file sees what
// their models see.
import { Tensor } from 'onnxruntime-node';
import type { SessionFactory } from '@tessera/runtime';
import { LOGMEL_INPUT, LOGMEL_OUTPUT, logMelGraph } from './whisper.logmel.graph';
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

interface ExtractorConfig {
  readonly n_fft: number;
  readonly hop_length: number;
  readonly n_samples: number;
  readonly nb_max_frames: number;
  readonly mel_filters: number[][];
}

/**
 * `padding`: 'mel' (default) zeroes the log-mel past the audio as openai-whisper and
 * faster-whisper do; 'audio' keeps the log-mel of the zero-padded audio, as transformers'
 * WhisperFeatureExtractor gives it (what transformers' generate and pipeline see).
 */
export async function whisperFeatures(
  preprocessorConfig: Record<string, unknown>,
  sessions: SessionFactory,
  padding: 'mel' | 'audio' = 'mel',
): Promise<WhisperFeatures> {
  const { WhisperFeatureExtractor } = await import('@huggingface/transformers');
  const extractor = new WhisperFeatureExtractor(preprocessorConfig) as unknown as {
    config: ExtractorConfig;
    window: Float64Array;
  };
  const config = extractor.config;
  if (config.hop_length !== HOP_SAMPLES || config.nb_max_frames !== WINDOW_FRAMES)
    throw new Error(
      `preprocessor_config.json: hop_length ${config.hop_length} and nb_max_frames ` +
        `${config.nb_max_frames} are not Whisper's ${HOP_SAMPLES} and ${WINDOW_FRAMES}`,
    );
  const melBins = config.mel_filters.length;
  const session = await sessions.create(
    logMelGraph({ window: extractor.window, melFilters: config.mel_filters }),
  );
  const framing = { nFft: config.n_fft, samples: config.n_samples };

  return {
    async window(audio, seek) {
      const start = seek * HOP_SAMPLES;
      const slice = audio.subarray(start, start + framing.samples);
      const frames = Math.min(WINDOW_FRAMES, Math.floor(audio.length / HOP_SAMPLES) - seek);
      // With 'mel' padding only the frames that touch the audio matter: the others are all
      // zeros, whose log-mel (log10 1e-10 = −10) is below every other value, so they change
      // neither the window's max nor anything kept. 'audio' padding keeps them all.
      const count = padding === 'mel' ? framesTouching(slice.length, framing.nFft) : WINDOW_FRAMES;
      const input = frameWindow(slice, count, framing);
      const out = await session.run({
        [LOGMEL_INPUT]: new Tensor('float32', input, [count, framing.nFft]),
      });
      const logMel = out[LOGMEL_OUTPUT].data as Float32Array;
      if (padding === 'audio' || (frames === WINDOW_FRAMES && count === WINDOW_FRAMES))
        return { features: logMel, frames };
      const features = new Float32Array(melBins * WINDOW_FRAMES);
      for (let bin = 0; bin < melBins; bin += 1)
        features.set(logMel.subarray(bin * count, bin * count + frames), bin * WINDOW_FRAMES);
      return { features, frames };
    },
  };
}

/** Frames (of the 3000) whose centred nFft-sample span reaches into `length` samples of audio. */
function framesTouching(length: number, nFft: number): number {
  return Math.max(1, Math.min(WINDOW_FRAMES, Math.ceil((length + nFft / 2) / HOP_SAMPLES)));
}

/**
 * The first `count` frames [count, nFft] of the window as the extractor frames it: `slice`
 * zero-padded to `samples`, then reflect-padded by nFft / 2 at both ends (numpy's 'reflect': the
 * edge sample is not repeated), frame i starting at i × hop.
 */
export function frameWindow(
  slice: Float32Array,
  count: number,
  { nFft, samples }: { readonly nFft: number; readonly samples: number },
): Float32Array {
  const pad = nFft / 2;
  const padded = new Float32Array(samples + 2 * pad);
  padded.set(slice, pad);
  const last = samples - 1;
  for (let i = 1; i <= pad; i += 1) {
    padded[pad - i] = i < slice.length ? slice[i] : 0;
    const mirrored = last - i;
    padded[last + pad + i] = mirrored < slice.length ? slice[mirrored] : 0;
  }
  const frames = new Float32Array(count * nFft);
  for (let i = 0; i < count; i += 1)
    frames.set(padded.subarray(i * HOP_SAMPLES, i * HOP_SAMPLES + nFft), i * nFft);
  return frames;
}
