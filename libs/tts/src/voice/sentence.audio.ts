// What piper-tts does to each sentence's audio before writing it (voice.py, synthesize):
// peak-normalise (audio / max|audio|, in float32; all zeros when the peak is under 1e-8), clip
// to [-1, 1], then to int16 as piper does (@tessera/audio's float32ToInt16).
import { float32ToInt16 } from '@tessera/audio';

const SILENCE_PEAK = 1e-8;

/** Piper's per-sentence normalisation and int16 conversion. */
export function piperSentencePcm(audio: Float32Array): Int16Array {
  let peak = 0;
  for (let i = 0; i < audio.length; i++) {
    const magnitude = Math.abs(audio[i]);
    if (magnitude > peak) peak = magnitude;
  }
  if (peak < SILENCE_PEAK) return new Int16Array(audio.length);
  // Stored in a Float32Array, each quotient is rounded to float32 as numpy's is.
  const normalised = new Float32Array(audio.length);
  for (let i = 0; i < audio.length; i++) {
    normalised[i] = Math.max(-1, Math.min(1, audio[i] / peak));
  }
  return float32ToInt16(normalised);
}
