// The graphs whose placement on `webgpu` is reported: every export an engine serves, as the
// committed fixtures (small, same operators as the real exports) and, where the model cache holds
// them, the real registry exports (whose optimisations and quantisation the fixtures lack).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeLogMelGraph } from './logmel.graph-file';
import type { FeedShape } from './probe.feeds';

export interface CatalogGraph {
  /** Which engine opens this graph, and which export it is. */
  readonly engine: string;
  readonly label: string;
  /**
   * Fixture path under the repository root, `registry--<recipe>/…` in the model cache, or
   * `generated:whisper-logmel` for the graph the transcription engine builds.
   */
  readonly file: string;
  /** One probe run per shape: a prefill and a one-token step for the decoders. */
  readonly shapes: readonly FeedShape[];
}

const ENCODE: readonly FeedShape[] = [{ sequence: 6, past: 0 }];
const DECODE: readonly FeedShape[] = [
  { sequence: 5, past: 0 },
  { sequence: 1, past: 5 },
];
const SPEAK: readonly FeedShape[] = [{ sequence: 12, past: 0 }];
const FIXTURES = 'test/fixtures/models';

export const CATALOG: readonly CatalogGraph[] = [
  ...[
    ['embeddings', 'tiny-bert'],
    ['embeddings', 'tiny-roberta-cls'],
    ['moderation', 'tiny-toxic-bert'],
    ['moderation', 'tiny-safety-cls'],
  ].map(([engine, model]) => ({
    engine: engine!,
    label: `${model} (fixture)`,
    file: `${FIXTURES}/${model}/onnx/model.onnx`,
    shapes: ENCODE,
  })),
  {
    engine: 'embeddings',
    label: 'all-MiniLM-L6-v2',
    file: 'registry--all-minilm-l6-v2/onnx/model.onnx',
    shapes: ENCODE,
  },
  ...[
    ['plain', 'model.onnx'],
    ['GroupQueryAttention', 'model_gqa.onnx'],
    ['int4 MatMulNBits', 'model_q4.onnx'],
  ].map(([kind, file]) => ({
    engine: 'chat',
    label: `tiny-llama ${kind} (fixture)`,
    file: `${FIXTURES}/tiny-llama/onnx/${file}`,
    shapes: DECODE,
  })),
  {
    engine: 'chat',
    label: 'tiny-qwen2 plain (fixture)',
    file: `${FIXTURES}/tiny-qwen2/onnx/model.onnx`,
    shapes: DECODE,
  },
  ...[
    ['plain', 'model.onnx'],
    ['GroupQueryAttention', 'model_gqa.onnx'],
    ['int4 MatMulNBits', 'model_q4.onnx'],
    ['GQA + int4', 'model_gqa_q4.onnx'],
  ].map(([kind, file]) => ({
    engine: 'chat',
    label: `SmolLM2-135M ${kind}`,
    file: `registry--smollm2-135m-instruct/onnx/${file}`,
    shapes: DECODE,
  })),
  ...[
    ['vision encoder', 'vision_encoder.onnx', ENCODE],
    ['embed tokens', 'embed_tokens.onnx', ENCODE],
    ['decoder', 'decoder_model_merged.onnx', DECODE],
  ].map(([part, file, shapes]) => ({
    engine: 'chat (vision)',
    label: `tiny-smolvlm ${String(part)} (fixture)`,
    file: `${FIXTURES}/tiny-smolvlm/onnx/${String(file)}`,
    shapes: shapes as readonly FeedShape[],
  })),
  {
    engine: 'transcription',
    label: 'whisper log-mel (built in)',
    file: 'generated:whisper-logmel',
    shapes: [{ sequence: 3000, past: 0 }],
  },
  ...whisper('tiny-whisper (fixture)', `${FIXTURES}/tiny-whisper/onnx`),
  ...whisper('whisper-tiny.en', 'registry--whisper-tiny-en/onnx'),
  {
    engine: 'speech',
    label: 'tiny-piper (fixture)',
    file: `${FIXTURES}/tiny-piper/tiny-piper.onnx`,
    shapes: SPEAK,
  },
  {
    engine: 'speech',
    label: 'tiny-piper-multi (fixture)',
    file: `${FIXTURES}/tiny-piper-multi/tiny-piper-multi.onnx`,
    shapes: SPEAK,
  },
  {
    engine: 'speech',
    label: 'piper joe-medium',
    file: 'registry--piper-joe/en_US-joe-medium.onnx',
    shapes: SPEAK,
  },
];

function whisper(label: string, dir: string): CatalogGraph[] {
  return [
    {
      engine: 'transcription',
      label: `${label} encoder`,
      file: `${dir}/encoder_model.onnx`,
      shapes: ENCODE,
    },
    {
      engine: 'transcription',
      label: `${label} decoder`,
      file: `${dir}/decoder_model_merged.onnx`,
      shapes: [
        { sequence: 4, past: 0 },
        { sequence: 1, past: 4 },
      ],
    },
  ];
}

/**
 * The file on disk: a fixture under `root`, a registry export under a build of its
 * recipe in `cacheDir` (`registry--<recipe>/<stamp>/…`); undefined when not there.
 */
export async function locateGraph(
  graph: CatalogGraph,
  root: string,
  cacheDir: string,
): Promise<string | undefined> {
  if (graph.file === 'generated:whisper-logmel') return writeLogMelGraph(root);
  if (!graph.file.startsWith('registry--')) {
    const file = join(root, graph.file);
    return existsSync(file) ? file : undefined;
  }
  const [recipe = '', ...rest] = graph.file.split('/');
  const recipeDir = join(cacheDir, recipe);
  if (!existsSync(recipeDir)) return undefined;
  return readdirSync(recipeDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(recipeDir, entry.name, ...rest))
    .find((file) => existsSync(file));
}
