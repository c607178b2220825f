/** @jest-environment ./libs/decoder/test/ort.environment.ts */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { TINY_LLAMA, TINY_QWEN2 } from '../test/tiny-models';
import { DECODER_OPS, describeDecoderGraph, findOpTypes } from './decoder.graph';
import { DecoderSession } from './decoder.session';
import { KvBatch } from './kv.batch';

const argmax = (row: Float32Array) => row.reduce((best, v, i) => (v > row[best] ? i : best), 0);
const PROMPTS = [
  [1, 9690, 198, 2683, 359, 253],
  [1, 4093, 198],
  [1, 4093, 198, 504, 3575, 282, 4649, 314, 2683, 359, 253, 5356, 30],
];

// The same weights as a plain-attention graph (Optimum; left-padded caches) and as a
// GroupQueryAttention graph (onnxruntime-genai's builder; right-padded caches shared in place).
describe.each([
  ['onnx/model.onnx', false],
  ['onnx/model_gqa.onnx', true],
] as const)('DecoderSession on tiny-llama %s', (onnxFile, sharedCache) => {
  let session: DecoderSession;

  beforeAll(async () => {
    session = await DecoderSession.load(TINY_LLAMA, onnxFile);
  });
  afterAll(() => session.release());

  it('reads the layout from the graph', () => {
    expect(session.graph).toMatchObject({
      layers: 2,
      kvHeads: 2,
      headSize: 16,
      kvType: 'float32',
      positionIds: !sharedCache,
      useCacheBranch: false,
      sharedCache,
      vocabSize: 49152,
    });
    expect(session.shape.padding).toBe(sharedCache ? 'right' : 'left');
    expect(session.graph.pastNames.slice(0, 2)).toEqual([
      'past_key_values.0.key',
      'past_key_values.0.value',
    ]);
  });

  /** Caches a prompt but its last token, which is the first decode input (as the scheduler does). */
  async function prefilled(prompt: number[], chunk = prompt.length): Promise<KvBatch> {
    const cache = session.newSequence();
    for (let at = 0; at < prompt.length - 1; at += chunk) {
      await session.prefill(cache, prompt.slice(at, Math.min(at + chunk, prompt.length - 1)));
    }
    return cache;
  }

  /** Logits of each step of greedy decoding, one sequence alone. */
  async function alone(prompt: number[], steps: number): Promise<Float32Array[]> {
    const cache = await prefilled(prompt);
    const rows = [(await session.decode(cache, [prompt[prompt.length - 1]])).slice()];
    for (let i = 1; i < steps; i++) {
      rows.push((await session.decode(cache, [argmax(rows[rows.length - 1])])).slice());
    }
    return rows;
  }

  /** Greedy-decodes `batch` (a row per prompt) and checks every row's logits against alone. */
  async function expectEachAsAlone(batch: KvBatch, steps: number): Promise<void> {
    const expected: Float32Array[][] = [];
    for (const prompt of PROMPTS) expected.push(await alone(prompt, steps));
    expect(batch.lengths).toEqual(PROMPTS.map((prompt) => prompt.length - 1));
    let tokens = PROMPTS.map((prompt) => prompt[prompt.length - 1]);
    for (let step = 0; step < steps; step++) {
      const logits = await session.decode(batch, tokens);
      const vocab = logits.length / PROMPTS.length;
      tokens = PROMPTS.map((_, row) => {
        const got = logits.subarray(row * vocab, (row + 1) * vocab);
        const want = expected[row][step];
        let worst = 0;
        for (let i = 0; i < vocab; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
        expect(worst).toBeLessThan(1e-4);
        expect(argmax(got)).toBe(argmax(want));
        return argmax(got);
      });
    }
  }

  it('decodes a padded batch of different lengths as each sequence alone', async () => {
    const caches = [];
    for (const prompt of PROMPTS) caches.push(await prefilled(prompt));
    const rows = caches.map((cache) => ({ batch: cache, row: 0 }));
    await expectEachAsAlone(KvBatch.assemble(session.shape, rows), 5);
  });

  it('prefills prompts of different lengths together to the caches each gets alone', async () => {
    const batch = KvBatch.empty(session.shape, PROMPTS.length);
    await session.prefillRows(
      batch,
      PROMPTS.map((prompt) => prompt.slice(0, -1)),
    );
    // Left-padded: the pad positions of the shorter prompts were zeroed.
    if (!sharedCache) expect(batch.data[0][0]).toBe(0);
    await expectEachAsAlone(batch, 3);
  });

  it('prefills in chunks to the same cache as at once', async () => {
    const prompt = PROMPTS[2];
    const last = [prompt[prompt.length - 1]];
    const whole = (await session.decode(await prefilled(prompt), last)).slice();
    const cache = await prefilled(prompt, 5);
    expect(cache.lengths).toEqual([prompt.length - 1]);
    const chunked = await session.decode(cache, last);
    for (let i = 0; i < whole.length; i += 997) expect(chunked[i]).toBeCloseTo(whole[i], 4);
  });

  it('runs one step at a time', async () => {
    const first = session.prefill(session.newSequence(), PROMPTS[0]);
    await expect(session.prefill(session.newSequence(), PROMPTS[1])).rejects.toThrow(
      /one prefill or decode at a time/,
    );
    await first;
  });

  it('takes one token per row', async () => {
    await expect(session.decode(KvBatch.empty(session.shape, 2), [1])).rejects.toThrow(
      /one token per row/,
    );
  });
});

describe.each([
  ['onnx/model_fp16.onnx', 'float16'],
  ['onnx/model_int8.onnx', 'float32'],
] as const)('DecoderSession on tiny-qwen2 %s', (onnxFile, kvType) => {
  it(`reads a ${kvType} KV cache and logits from the graph`, async () => {
    const session = await DecoderSession.load(TINY_QWEN2, onnxFile);
    try {
      expect(session.graph).toMatchObject({
        layers: 2,
        kvHeads: 1,
        headSize: 16,
        kvType,
        logitsType: kvType,
        vocabSize: 49152,
      });
    } finally {
      await session.release();
    }
  });
});

describe('op types a decoder graph uses', () => {
  const ops = (file: string) => findOpTypes(file, DECODER_OPS).then((found) => [...found].sort());

  it('are found in the file, across chunk boundaries too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-'));
    try {
      const file = join(dir, 'model.onnx');
      // The name straddles the scanner's 8 MiB chunks.
      const gap = Buffer.alloc((8 << 20) - 5);
      writeFileSync(file, Buffer.concat([gap, Buffer.from('GroupQueryAttention')]));
      await expect(ops(file)).resolves.toEqual(['GroupQueryAttention']);
      await expect(ops(join(TINY_LLAMA, 'onnx', 'model_gqa.onnx'))).resolves.toEqual([
        'GroupQueryAttention',
      ]);
      await expect(ops(join(TINY_LLAMA, 'onnx', 'model_q4.onnx'))).resolves.toEqual([
        'MatMulNBits',
      ]);
      await expect(ops(join(TINY_LLAMA, 'onnx', 'model.onnx'))).resolves.toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('mark an int4 (MatMulNBits) graph as one whose lone rows differ', async () => {
    for (const [file, differs] of [
      ['model_q4.onnx', true],
      ['model.onnx', false],
    ] as const) {
      const session = await DecoderSession.load(TINY_LLAMA, join('onnx', file));
      try {
        expect(session.graph.loneRowDiffers).toBe(differs);
      } finally {
        await session.release();
      }
    }
  });

  it('refuse GroupQueryAttention taking the sequence lengths themselves, naming the inputs', () => {
    const session = {
      inputNames: ['input_ids', 'seqlens_k', 'total_sequence_length'],
      outputNames: ['logits'],
    } as unknown as InferenceSession;
    expect(() =>
      describeDecoderGraph(
        session,
        'model.onnx',
        { layers: 1, kvHeads: 1, headSize: 1 },
        new Set(['GroupQueryAttention']),
      ),
    ).toThrow(
      /model\.onnx uses GroupQueryAttention with seqlens_k, total_sequence_length as graph inputs/,
    );
  });
});
