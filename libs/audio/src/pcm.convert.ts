// Sample conversions between the engine's output and what the encoder reads, in one place.
import * as os from 'node:os';

/** Piper's full scale: 32767, so that -1 and 1 map to symmetric values (never -32768). */
const INT16_FULL_SCALE = 32767;

/**
 * Float samples in [-1, 1] to 16-bit, exactly as piper-tts writes them:
 * `np.clip(audio * 32767.0, -32767, 32767).astype(np.int16)` on a float32 array. The product is
 * taken in float32 (numpy keeps the array's dtype), so it is rounded to float32 before the cast
 * truncates toward zero; in double precision a product just under an integer would truncate to
 * the integer below where piper's rounds up to it. NaN becomes 0.
 */
export function float32ToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const scaled = Math.fround(samples[i] * INT16_FULL_SCALE);
    // Assigning to an Int16Array truncates toward zero, as astype does for values in range.
    out[i] =
      scaled > INT16_FULL_SCALE
        ? INT16_FULL_SCALE
        : scaled < -INT16_FULL_SCALE
          ? -INT16_FULL_SCALE
          : scaled;
  }
  return out;
}

const BIG_ENDIAN_HOST = os.endianness() === 'BE';

/**
 * The bytes of 16-bit samples in little-endian order (ffmpeg's s16le, OpenAI's pcm): a view of
 * the same memory on a little-endian host, a swapped copy on a big-endian one.
 */
export function int16ToLittleEndianBytes(samples: Int16Array): Buffer {
  const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  return BIG_ENDIAN_HOST ? Buffer.from(bytes).swap16() : bytes;
}
