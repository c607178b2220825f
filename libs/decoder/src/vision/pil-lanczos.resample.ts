// Pillow's LANCZOS resize of an 8-bit RGB image, integer for integer (Pillow 13's
// libImaging/Resample.c: per-axis coefficients normalised to 22-bit fixed point, two passes in
// Pillow's order, each rounding and clipping to 8 bits). Written here, not taken from a
// library, because the Python processor every Idefics3/SmolVLM checkpoint was trained with
// resizes with Pillow, and neither sharp (libvips' lanczos3) nor transformers.js (bilinear on
// normalised floats) gives Pillow's bytes: equal bytes are what make the pixel values equal.

/** An 8-bit image, channels last (RGB: 3 bytes a pixel, row after row). */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

const PRECISION_BITS = 32 - 8 - 2;
const SUPPORT = 3;

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = x * Math.PI;
  return Math.sin(px) / px;
}

function lanczos(x: number): number {
  return x >= -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0;
}

interface Coefficients {
  readonly size: number;
  /** Per output index: first input index and count. */
  readonly bounds: Int32Array;
  /** Per output index, `size` fixed-point weights. */
  readonly weights: Float64Array;
}

/** precompute_coeffs + normalize_coeffs_8bpc of Resample.c, for the box [0, inSize). */
function coefficients(inSize: number, outSize: number): Coefficients {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = SUPPORT * filterScale;
  const size = Math.ceil(support) * 2 + 1;
  const bounds = new Int32Array(outSize * 2);
  const weights = new Float64Array(outSize * size);
  const prekk = new Float64Array(size);
  for (let xx = 0; xx < outSize; xx++) {
    const center = (xx + 0.5) * scale;
    const ss = 1 / filterScale;
    // C's (int) cast truncates toward zero.
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5)) - xmin;
    let ww = 0;
    for (let x = 0; x < xmax; x++) {
      const w = lanczos((x + xmin - center + 0.5) * ss);
      prekk[x] = w;
      ww += w;
    }
    for (let x = 0; x < size; x++) {
      const k = x < xmax ? (ww !== 0 ? prekk[x] / ww : prekk[x]) : 0;
      weights[xx * size + x] = Math.trunc(
        k < 0 ? -0.5 + k * (1 << PRECISION_BITS) : 0.5 + k * (1 << PRECISION_BITS),
      );
    }
    bounds[xx * 2] = xmin;
    bounds[xx * 2 + 1] = xmax;
  }
  return { size, bounds, weights };
}

/** clip8: the fixed-point sum (rounding half already added) to 0…255. */
function clip8(sum: number): number {
  const value = Math.floor(sum / (1 << PRECISION_BITS));
  return value < 0 ? 0 : value > 255 ? 255 : value;
}

function horizontal(image: RgbImage, width: number): RgbImage {
  const { size, bounds, weights } = coefficients(image.width, width);
  const out = new Uint8Array(width * image.height * 3);
  const half = 1 << (PRECISION_BITS - 1);
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width * 3;
    for (let xx = 0; xx < width; xx++) {
      const xmin = bounds[xx * 2];
      const count = bounds[xx * 2 + 1];
      let r = half;
      let g = half;
      let b = half;
      for (let x = 0; x < count; x++) {
        const k = weights[xx * size + x];
        const at = row + (x + xmin) * 3;
        r += image.data[at] * k;
        g += image.data[at + 1] * k;
        b += image.data[at + 2] * k;
      }
      const o = (y * width + xx) * 3;
      out[o] = clip8(r);
      out[o + 1] = clip8(g);
      out[o + 2] = clip8(b);
    }
  }
  return { width, height: image.height, data: out };
}

function vertical(image: RgbImage, height: number): RgbImage {
  const { size, bounds, weights } = coefficients(image.height, height);
  const stride = image.width * 3;
  const out = new Uint8Array(image.width * height * 3);
  const half = 1 << (PRECISION_BITS - 1);
  for (let yy = 0; yy < height; yy++) {
    const ymin = bounds[yy * 2];
    const count = bounds[yy * 2 + 1];
    for (let i = 0; i < stride; i++) {
      let sum = half;
      for (let y = 0; y < count; y++)
        sum += image.data[(y + ymin) * stride + i] * weights[yy * size + y];
      out[yy * stride + i] = clip8(sum);
    }
  }
  return { width: image.width, height, data: out };
}

/**
 * Pillow 13's pass order (ImagingResampleInner): "if height is being scaled down more than
 * twice the amount the width is, run the vertical pass first". The order changes the bytes
 * (each pass rounds to 8 bits), so it is Pillow's rule, to the pixel.
 */
function verticalFirst(image: RgbImage, width: number, height: number): boolean {
  const shrinkY = image.height - height;
  return shrinkY > 0 && shrinkY > (image.width - width) * 2;
}

/** Image.resize((width, height), Image.LANCZOS) of an RGB image. */
export function resizeLanczos(image: RgbImage, width: number, height: number): RgbImage {
  if (image.width === width && image.height === height) return image;
  if (width !== image.width && height !== image.height && verticalFirst(image, width, height)) {
    return horizontal(vertical(image, height), width);
  }
  let out = image;
  if (width !== image.width) out = horizontal(out, width);
  if (height !== image.height) out = vertical(out, height);
  return out;
}

/** The box [left, top, left + width, top + height) of an RGB image. */
export function cropRgb(
  image: RgbImage,
  left: number,
  top: number,
  width: number,
  height: number,
): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * image.width + left) * 3;
    data.set(image.data.subarray(from, from + width * 3), y * width * 3);
  }
  return { width, height, data };
}
