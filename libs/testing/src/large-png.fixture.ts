// PNGs whose header states a large size but whose bytes are few, for the tests of what is
// refused before an image is decoded: a blank one (every row zero, deflated: a 6900 × 6900 image
// is ~46 KB and decodes to 47.6 megapixels), and a header alone, with no pixel data at all, which
// any decoder refuses, so a request that gets past the header checks shows it by a decode error.
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** 8-bit greyscale, not interlaced. */
function ihdr(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8;
  return chunk('IHDR', data);
}

/** The signature and IHDR of a `width` × `height` png, then IEND: no pixel data. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  return Buffer.concat([SIGNATURE, ihdr(width, height), chunk('IEND', Buffer.alloc(0))]);
}

/** A complete black `width` × `height` png (8-bit greyscale). */
export function blankPng(width: number, height: number): Buffer {
  // Each row: filter type 0, then `width` zero samples.
  const rows = Buffer.alloc((width + 1) * height);
  const idat = chunk('IDAT', deflateSync(rows, { level: 9 }));
  return Buffer.concat([SIGNATURE, ihdr(width, height), idat, chunk('IEND', Buffer.alloc(0))]);
}
