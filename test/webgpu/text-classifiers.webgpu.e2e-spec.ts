// Embeddings and moderation on the WebGPU provider give what the CPU provider gives, through the
// whole stack: the same inputs to `<id>` (CPU) and `<id>-webgpu`, the answers compared.
import { onWebgpu, useWebgpuStack } from './webgpu-stack';

const EMBEDDINGS = 'tiny-bert';
const MODERATION = 'tiny-toxic-bert';
/** The bars of the suite (docs/gpu.md, "Verification"). */
const MIN_COSINE = 0.9999;
const MAX_SCORE_DELTA = 1e-4;

const sentences = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `Sentence ${i} says something different about the weather in town.`,
  ).join(' ');
// Lengths from a word to near the embedder's 128 tokens, in one request: padded rows of a batch.
const INPUTS = [
  'hello world',
  'The quick brown fox jumps over the lazy dog.',
  'You are a wonderful person and I hope your day goes well.',
  sentences(5),
];
/** Past the classifier's 64 tokens: cut into overlapping windows, their scores combined. */
const MODERATION_INPUTS = [...INPUTS, sentences(12)];

const stack = useWebgpuStack(['embeddings', 'moderation']);
const client = () => stack().client;

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

describe('embeddings', () => {
  it(`each input's vector on webgpu has a cosine ≥ ${MIN_COSINE} to the CPU's`, async () => {
    const [cpu, webgpu] = await Promise.all(
      [EMBEDDINGS, onWebgpu(EMBEDDINGS)].map((model) =>
        client().embeddings.create({ model, input: INPUTS, encoding_format: 'float' }),
      ),
    );
    expect(webgpu.data).toHaveLength(INPUTS.length);
    const cosines = INPUTS.map((_, i) => {
      expect(webgpu.data[i].embedding).toHaveLength(cpu.data[i].embedding.length);
      return cosine(cpu.data[i].embedding, webgpu.data[i].embedding);
    });
    console.log(`embeddings: smallest cosine webgpu/cpu ${Math.min(...cosines)}`);
    expect(cosines.filter((value) => !(value >= MIN_COSINE))).toEqual([]);
    expect(webgpu.usage).toEqual(cpu.usage);
  });
});

describe('moderation', () => {
  it(`every category score on webgpu is within ${MAX_SCORE_DELTA} of the CPU's`, async () => {
    const [cpu, webgpu] = await Promise.all(
      [MODERATION, onWebgpu(MODERATION)].map((model) =>
        client().moderations.create({ model, input: MODERATION_INPUTS }),
      ),
    );
    expect(webgpu.results).toHaveLength(MODERATION_INPUTS.length);
    const deltas = MODERATION_INPUTS.flatMap((_, i) => {
      const cpuScores = cpu.results[i].category_scores as unknown as Record<string, number>;
      const webgpuScores = webgpu.results[i].category_scores as unknown as Record<string, number>;
      expect(Object.keys(webgpuScores).sort()).toEqual(Object.keys(cpuScores).sort());
      return Object.entries(cpuScores).map(([category, score]) => ({
        input: i,
        category,
        delta: Math.abs(webgpuScores[category] - score),
      }));
    });
    const largest = Math.max(...deltas.map(({ delta }) => delta));
    expect(deltas.filter(({ delta }) => !(delta <= MAX_SCORE_DELTA))).toEqual([]);
    console.log(`moderation: largest |score delta| webgpu/cpu ${largest}`);
  });
});
