// IEEE half → single precision for float16 logits (Node 20 has no Float16Array): a table of
// all 65,536 values, built once, makes each conversion one load.
let table: Float32Array | undefined;

function halfTable(): Float32Array {
  if (table) return table;
  table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    if (exponent === 0) table[h] = sign * 2 ** -14 * (fraction / 1024);
    else if (exponent === 31) table[h] = fraction ? NaN : sign * Infinity;
    else table[h] = sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return table;
}

/** Writes `source` (half bits) into `target` as floats; `target` must be at least as long. */
export function float16ToFloat32(source: Uint16Array, target: Float32Array): Float32Array {
  const half = halfTable();
  for (let i = 0; i < source.length; i++) target[i] = half[source[i]];
  return target.subarray(0, source.length);
}
