// What piper-tts does to each sentence's audio before writing it (voice.py, synthesize):
// peak-normalise (audio / max|audio|; all zeros when the peak is under 1e-8), clip to [-1, 1],
// then int16 = clip(x × 32767) truncated toward zero, as numpy's astype(int16) does.

const SILENCE_PEAK = 1e-8;
const MAX_WAV_VALUE = 32767;

/** Piper's per-sentence normalisation and int16 conversion, in one pass over the samples. */
export function piperSentencePcm(audio: Float32Array): Int16Array {
  let peak = 0;
  for (let i = 0; i < audio.length; i++) {
    const magnitude = Math.abs(audio[i]);
    if (magnitude > peak) peak = magnitude;
  }
  const pcm = new Int16Array(audio.length);
  if (peak < SILENCE_PEAK) return pcm;
  for (let i = 0; i < audio.length; i++) {
    // Math.fround: numpy divides in float32 (the array's type), so the quotient is rounded there.
    const normalised = Math.max(-1, Math.min(1, Math.fround(audio[i] / peak)));
    pcm[i] = Math.trunc(Math.fround(normalised * MAX_WAV_VALUE));
  }
  return pcm;
}
