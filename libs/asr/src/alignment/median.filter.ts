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
  const padded = new Float64Array(cols + 2 * half);
  for (let row = 0; row < data.length; row += cols) {
    // The row with its edges reflected (index -1 reads 1, cols reads cols - 2), once per row.
    let nan = false;
    for (let k = 0; k < padded.length; k++) {
      let index = k - half;
      if (index < 0) index = -index;
      else if (index >= cols) index = 2 * (cols - 1) - index;
      padded[k] = data[row + index];
      nan ||= Number.isNaN(padded[k]);
    }
    if (nan) medianOfRow(padded, out, row, cols, window, lessThan);
    else medianOfRowFinite(padded, out, row, cols, window);
  }
  return out;
}

/** The medians of one padded row into out[row...]: insertion sort of `width` values each. */
function medianOfRow(
  padded: Float64Array,
  out: Float32Array,
  row: number,
  cols: number,
  window: Float64Array,
  before: (a: number, b: number) => boolean,
): void {
  const width = window.length;
  for (let i = 0; i < cols; i++) {
    for (let k = 0; k < width; k++) {
      const value = padded[i + k];
      let at = k;
      while (at > 0 && before(value, window[at - 1])) {
        window[at] = window[at - 1];
        at--;
      }
      window[at] = value;
    }
    out[row + i] = window[(width - 1) / 2];
  }
}

/**
 * medianOfRow for a row without NaN: the window kept sorted as it slides, the value leaving it
 * taken out and the one entering put in place (a few moves instead of a sort per element).
 */
function medianOfRowFinite(
  padded: Float64Array,
  out: Float32Array,
  row: number,
  cols: number,
  window: Float64Array,
): void {
  const width = window.length;
  const half = (width - 1) / 2;
  for (let k = 0; k < width; k++) {
    const value = padded[k];
    let at = k;
    while (at > 0 && value < window[at - 1]) {
      window[at] = window[at - 1];
      at--;
    }
    window[at] = value;
  }
  out[row] = window[half];
  for (let i = 1; i < cols; i++) {
    const leaving = padded[i - 1];
    const entering = padded[i + width - 1];
    let at = 0;
    while (window[at] !== leaving) at++;
    // Shift towards the gap until the entering value fits.
    while (at > 0 && entering < window[at - 1]) {
      window[at] = window[at - 1];
      at--;
    }
    while (at < width - 1 && entering > window[at + 1]) {
      window[at] = window[at + 1];
      at++;
    }
    window[at] = entering;
    out[row + i] = window[half];
  }
}
