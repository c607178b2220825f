// Pillow's LANCZOS, byte for byte: the fixture's image resized to shapes that take both of
// Pillow 13's pass orders, against the SHA-256 of Pillow's own output (image_reference.json).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRgb } from './idefics3.processor';
import { resizeLanczos } from './pil-lanczos.resample';

const MODEL = join(__dirname, '../../../../test/fixtures/models/tiny-smolvlm');
const { resize } = JSON.parse(readFileSync(join(MODEL, 'image_reference.json'), 'utf8')) as {
  resize: { image: string; cases: { width: number; height: number; sha256: string }[] };
};

describe('resizeLanczos (Pillow 13 Image.resize LANCZOS)', () => {
  it.each(resize.cases.map((c) => [c.width, c.height, c.sha256] as const))(
    'to %i×%i gives Pillow’s bytes',
    async (width, height, sha256) => {
      const image = await decodeRgb(readFileSync(join(MODEL, 'images', resize.image)));
      const out = resizeLanczos(image, width, height);
      expect([out.width, out.height]).toEqual([width, height]);
      expect(createHash('sha256').update(out.data).digest('hex')).toBe(sha256);
    },
  );
});
