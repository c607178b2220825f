// An image's width and height as its header states them, read without decoding a pixel, for
// the four formats the gateway lets through (png, jpeg, webp, gif; told apart by their magic
// bytes, not by the declared type). It runs on the chat service's main thread before any image
// is decoded (microseconds; sharp's own metadata() would queue on libuv's threadpool behind the
// decodes already running), so that an image that cannot fit the context or the request's pixel
// bound is refused at once. The processor decodes with sharp later and checks its own size.

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[] | string, at = 0): boolean {
  const codes = typeof prefix === 'string' ? [...prefix].map((c) => c.charCodeAt(0)) : prefix;
  return bytes.length >= at + codes.length && codes.every((code, i) => bytes[at + i] === code);
}

/** The size the header states; undefined when the bytes are no supported image or cut short. */
export function readImageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = (width: number, height: number) =>
    width > 0 && height > 0 ? { width, height } : undefined;
  try {
    // IHDR is the first chunk: width and height as big-endian u32 after its length and type.
    if (startsWith(bytes, PNG)) {
      return startsWith(bytes, 'IHDR', 12)
        ? size(view.getUint32(16), view.getUint32(20))
        : undefined;
    }
    if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegSize(bytes, view);
    if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return gifSize(bytes, view);
    if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return webpSize(bytes, view);
  } catch (error) {
    // A read past the end: the header is cut short.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  return undefined;
}

/** SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): precision, then height and width. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2;
  for (;;) {
    if (bytes[at] !== 0xff) return undefined;
    // Fill bytes (0xFF) may precede a marker.
    while (bytes[at] === 0xff) at++;
    const marker = view.getUint8(at++);
    // Markers without a length: TEM, RST0–7, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    // EOI or SOS before any frame header: no size.
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = view.getUint16(at);
    if (isStartOfFrame(marker)) {
      const height = view.getUint16(at + 3);
      const width = view.getUint16(at + 5);
      // A height of 0 is defined later by a DNL marker, which libjpeg does not support.
      return height > 0 && width > 0 ? { width, height } : undefined;
    }
    if (length < 2) return undefined;
    at += length;
  }
}

/**
 * The logical screen, grown to the first frame where that frame reaches past it (libnsgif,
 * which libvips decodes gifs with, does so; only the first frame is used).
 */
function gifSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let width = view.getUint16(6, true);
  let height = view.getUint16(8, true);
  const flags = view.getUint8(10);
  let at = 13 + (flags & 0x80 ? 3 << ((flags & 0x07) + 1) : 0);
  for (;;) {
    const block = view.getUint8(at);
    if (block === 0x2c) {
      width = Math.max(width, view.getUint16(at + 1, true) + view.getUint16(at + 5, true));
      height = Math.max(height, view.getUint16(at + 3, true) + view.getUint16(at + 7, true));
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (block !== 0x21) return undefined;
    // An extension: its label, then data sub-blocks until an empty one.
    at += 2;
    for (let length = view.getUint8(at); length > 0; length = view.getUint8(at)) at += length + 1;
    at++;
  }
}

/** The first chunk: VP8X's canvas, a lossless VP8L's or a lossy VP8's frame size. */
function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const u24 = (at: number) => view.getUint16(at, true) | (view.getUint8(at + 2) << 16);
  if (startsWith(bytes, 'VP8X', 12)) return { width: u24(24) + 1, height: u24(27) + 1 };
  if (startsWith(bytes, 'VP8L', 12)) {
    if (view.getUint8(20) !== 0x2f) return undefined;
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (startsWith(bytes, 'VP8 ', 12)) {
    if (!startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return undefined;
    const width = view.getUint16(26, true) & 0x3fff;
    const height = view.getUint16(28, true) & 0x3fff;
    return width > 0 && height > 0 ? { width, height } : undefined;
  }
  return undefined;
}
