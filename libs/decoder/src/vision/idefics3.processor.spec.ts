// Parity with the Python processor (run on the image worker, as the chat service runs it): test/fixtures/models/tiny-smolvlm/image_reference.json holds
// what transformers' Idefics3Processor (Pillow) gives each committed test image at each detail:
// the tile grid, the image tokens of the expanded prompt and the SHA-256 of every tile's 8-bit
// values. Node's pixel values must sit within 1e-4 of that 8-bit grid ((u8 / 255 − 0.5) / 0.5),
// and the 8-bit values recovered from them must hash the same: the pixel values are equal.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageDetail } from '@tessera/text';
import { OrtWorkerPool, engineModule } from '@tessera/runtime';
import { readIdefics3ProcessorConfig, type ProcessedImage } from './idefics3.processor';
import type { ImageEngineTypes } from './image.engine';
import { imageTokenCount } from './idefics3.prompt';

const MODEL = join(__dirname, '../../../../test/fixtures/models/tiny-smolvlm');

interface ReferenceCase {
  image: string;
  detail: ImageDetail;
  rows: number;
  cols: number;
  tiles: number;
  image_tokens: number;
  tiles_u8: { sha256: string; mean: number[] }[];
}

const reference = JSON.parse(readFileSync(join(MODEL, 'image_reference.json'), 'utf8')) as {
  cases: ReferenceCase[];
};

let pool: OrtWorkerPool<ImageEngineTypes>;
beforeAll(async () => {
  // The image worker the service uses: the processing runs as in production (and at full
  // speed: code inside jest's module sandbox runs many times slower than in a worker).
  pool = new OrtWorkerPool({
    engine: engineModule<ImageEngineTypes>(__dirname, 'image.engine'),
    modelDir: MODEL,
    engineOptions: await readIdefics3ProcessorConfig(MODEL),
    runtime: { workers: 1, intra_op_threads: 1 },
    concurrency: 2,
  });
  await pool.start();
}, 60_000);
afterAll(() => pool?.close());

const done = new Map<ReferenceCase, Promise<ProcessedImage>>();

/** Each case is processed once for both tests (a high-detail image is 13–17 tiles). */
function processed(expected: ReferenceCase): Promise<ProcessedImage> {
  let image = done.get(expected);
  if (!image) {
    const data = new Uint8Array(readFileSync(join(MODEL, 'images', expected.image)));
    image = pool.execute({ data, detail: expected.detail });
    done.set(expected, image);
  }
  return image;
}

describe('Idefics3 image processor (parity with transformers + Pillow)', () => {
  it.each(reference.cases.map((c) => [c.image, c.detail, c] as const))(
    '%s, detail %s: tile grid and image tokens',
    async (_image, _detail, expected) => {
      const image = await processed(expected);
      expect([image.rows, image.cols, image.tiles]).toEqual([
        expected.rows,
        expected.cols,
        expected.tiles,
      ]);
      expect(imageTokenCount(image, 64)).toBe(expected.image_tokens);
    },
  );

  for (const expected of reference.cases) {
    const name = `${expected.image} ${expected.detail}`;
    it(`${name}: pixel values within 1e-4`, async () => {
      const image = await processed(expected);
      const plane = 3 * image.side * image.side;
      let worst = 0;
      for (let t = 0; t < image.tiles; t++) {
        const tile = image.pixelValues.subarray(t * plane, (t + 1) * plane);
        const u8 = new Uint8Array(plane);
        for (let i = 0; i < plane; i++) {
          const level = Math.round((tile[i] * 0.5 + 0.5) * 255);
          worst = Math.max(worst, Math.abs(tile[i] - (level / 255 - 0.5) / 0.5));
          u8[i] = level;
        }
        const means = [0, 1, 2].map((c) => {
          let sum = 0;
          for (let i = c * (plane / 3); i < (c + 1) * (plane / 3); i++) sum += u8[i];
          return Math.round((sum / (plane / 3)) * 1e4) / 1e4;
        });
        expect({ tile: t, means }).toEqual({ tile: t, means: expected.tiles_u8[t].mean });
        expect(createHash('sha256').update(u8).digest('hex')).toBe(expected.tiles_u8[t].sha256);
      }
      expect(worst).toBeLessThan(1e-4);
    });
  }
});
