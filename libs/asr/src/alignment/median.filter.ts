// The median filter Whisper smooths cross-attention with (openai-whisper timing.py
// `median_filter`, transformers' `_median_filter`): along the last axis, reflect-padded, odd
// width. Written here because transformers.js keeps its `medianFilter` (utils/maths.js) out of
// its package exports (require('@huggingface/transformers/src/utils/maths.js') is refused with
// ERR_PACKAGE_PATH_NOT_EXPORTED); this one also treats NaN as torch's sort does (largest), which
// the reference needs when a head's attention is constant over the tokens (std 0 → NaN).

/** NaN sorts last, as torch.sort and numpy.sort place it. */
function lessThan(a: number, b: number): boolean {
  return a < b || (Number.isNaN(b) && !Number.isNaN(a));
}

/**
 * Filters each row of `data` (rows of `cols` values, row-major) with a median of `width` (odd)
 * values centred on each element, the edges reflected (index -1 reads 1). A row no longer than
 * width / 2 is returned unchanged, as transformers does.
 */
export function medianFilterRows(data: Float32Array, cols: number, width: number): Float32Array {
  if (width <= 0 || width % 2 !== 1) throw new RangeError('the median filter width must be odd');
  if (cols <= 0 || data.length % cols !== 0)
    throw new RangeError(`${data.length} values are not rows of ${cols}`);
  const half = (width - 1) / 2;
  const out = new Float32Array(data.length);
  if (cols <= half) {
    out.set(data);
    return out;
  }
  const window = new Float64Array(width);
  for (let row = 0; row < data.length; row += cols) {
    for (let i = 0; i < cols; i++) {
      // Insertion sort of `width` values: 7 in Whisper, where a general sort costs more.
      for (let k = 0; k < width; k++) {
        let index = i + k - half;
        if (index < 0) index = -index;
        else if (index >= cols) index = 2 * (cols - 1) - index;
        const value = data[row + index];
        let at = k;
        while (at > 0 && lessThan(value, window[at - 1])) {
          window[at] = window[at - 1];
          at--;
        }
        window[at] = value;
      }
      out[row + i] = window[half];
    }
  }
  return out;
}
