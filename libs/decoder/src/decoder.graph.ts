// What a decoder graph takes and gives, read from the session itself (names, element types,
// dims), so Llama, Qwen2, SmolLM2, Phi-3 and Gemma exports in the Optimum / transformers.js
// layout load without per-architecture code, and so do GroupQueryAttention graphs as
// onnxruntime-genai's model builder makes them (the same inputs and outputs; the op derives
// each row's positions from the attention mask and appends to a cache shared in place, so
// they run right-padded: `sharedCache`). GroupQueryAttention graphs that take the sequence
// lengths as inputs instead are refused with a clear message.
import { open } from 'node:fs/promises';
import type { InferenceSession } from 'onnxruntime-node';

export type KvType = 'float32' | 'float16';

export interface DecoderGraph {
  readonly layers: number;
  readonly kvHeads: number;
  readonly headSize: number;
  readonly kvType: KvType;
  /** `past_key_values.N.key`, `.value` for N = 0…layers−1, in that order. */
  readonly pastNames: readonly string[];
  /** The output that becomes each past input next step (same order). */
  readonly presentNames: readonly string[];
  readonly positionIds: boolean;
  /** The graph takes `inputs_embeds` (a vision-language model's decoder) instead of ids. */
  readonly inputsEmbeds: boolean;
  /** Optimum's merged decoders choose between their with- and without-cache branch. */
  readonly useCacheBranch: boolean;
  readonly logitsType: KvType;
  /**
   * A GroupQueryAttention graph: its caches are right-padded and each `present.*` is fetched
   * into the buffer fed as its past, which the graph appends to in place (`KvBatch`).
   */
  readonly sharedCache: boolean;
  /**
   * The graph has kernels that compute a row differently when it is a run's only row: ONNX
   * Runtime's `MatMulNBits` (int4) takes another path at M = 1 (rows × positions) than at
   * M ≥ 2, where each row's result does not depend on the others (logits differ by up to 0.1
   * on SmolLM2's int4 export). The scheduler never runs such a graph on a single row
   * (docs/chat.md, "Batch invariance").
   */
  readonly loneRowDiffers: boolean;
  /** Logits rows when the graph declares them as a number. */
  readonly vocabSize?: number;
}

const PAST = /^past_key_values\.(\d+)\.(key|value)$/;
const KNOWN_INPUTS = new Set([
  'input_ids',
  'inputs_embeds',
  'attention_mask',
  'position_ids',
  'use_cache_branch',
]);
/** Inputs of GroupQueryAttention exports that take the sequence lengths themselves. */
const GQA_INPUTS = ['seqlens_k', 'total_sequence_length'];
const GQA_OP = 'GroupQueryAttention';
const LONE_ROW_OPS = ['MatMulNBits'];
/** The op types `describeDecoderGraph` asks `findOpTypes` about. */
export const DECODER_OPS = [GQA_OP, ...LONE_ROW_OPS];

type TensorMetadata = Extract<InferenceSession.ValueMetadata, { isTensor: true }>;

function tensorMetadata(
  list: readonly InferenceSession.ValueMetadata[],
  name: string,
): TensorMetadata | undefined {
  const found = list.find((m) => m.name === name);
  return found?.isTensor ? found : undefined;
}

/**
 * Reads the layout from the session; `file` names the graph in errors. `declared` is what
 * config.json says (layers, KV heads, head size), checked against the graph's own dims;
 * `ops`: which of `DECODER_OPS` the file's nodes use (`findOpTypes`).
 */
export function describeDecoderGraph(
  session: InferenceSession,
  file: string,
  declared: { readonly layers: number; readonly kvHeads: number; readonly headSize: number },
  ops: ReadonlySet<string> = new Set(),
): DecoderGraph {
  const inputs = session.inputNames;
  const gqa = GQA_INPUTS.filter((name) => inputs.includes(name));
  if (gqa.length > 0) throw groupQueryAttentionError(file, gqa.join(', '));
  const layerCount = inputs.filter((name) => PAST.test(name)).length / 2;
  const tokens = inputs.includes('input_ids') || inputs.includes('inputs_embeds');
  if (!tokens || !inputs.includes('attention_mask') || layerCount === 0) {
    throw new Error(
      `${file} is not a decoder-with-past export: inputs [${inputs.join(', ')}], expected ` +
        `input_ids (or inputs_embeds), attention_mask, past_key_values.N.key/value (Optimum ` +
        `text-generation-with-past, transformers.js decoder_model_merged)`,
    );
  }
  const unknown = inputs.filter((name) => !KNOWN_INPUTS.has(name) && !PAST.test(name));
  if (unknown.length > 0) throw new Error(`${file} has inputs this engine cannot fill: ${unknown}`);
  if (layerCount !== declared.layers) {
    throw new Error(`${file} has ${layerCount} layers of past, config.json ${declared.layers}`);
  }
  const pastNames: string[] = [];
  const presentNames: string[] = [];
  for (let layer = 0; layer < layerCount; layer++) {
    for (const kind of ['key', 'value']) {
      const past = `past_key_values.${layer}.${kind}`;
      const present = `present.${layer}.${kind}`;
      if (!inputs.includes(past) || !session.outputNames.includes(present)) {
        throw new Error(`${file} lacks ${inputs.includes(past) ? present : past}`);
      }
      pastNames.push(past);
      presentNames.push(present);
    }
  }
  const past = tensorMetadata(session.inputMetadata, pastNames[0]);
  const logits = tensorMetadata(session.outputMetadata, 'logits');
  if (!logits) throw new Error(`${file} has no logits output`);
  const kvType = past?.type ?? 'float32';
  const logitsType = logits.type;
  for (const [what, type] of [
    ['past', kvType],
    ['logits', logitsType],
  ]) {
    if (type !== 'float32' && type !== 'float16') {
      throw new Error(`${file}: ${what} is ${type}; float32 and float16 are supported`);
    }
  }
  // [batch, kv heads, past length, head size]; a symbolic dim falls back to config.json.
  const dim = (i: number, fallback: number) =>
    typeof past?.shape[i] === 'number' ? (past.shape[i] as number) : fallback;
  const kvHeads = dim(1, declared.kvHeads);
  const headSize = dim(3, declared.headSize);
  const vocab = logits.shape[2];
  return {
    layers: layerCount,
    kvHeads,
    headSize,
    kvType: kvType as KvType,
    pastNames,
    presentNames,
    positionIds: inputs.includes('position_ids'),
    inputsEmbeds: !inputs.includes('input_ids'),
    useCacheBranch: inputs.includes('use_cache_branch'),
    logitsType: logitsType as KvType,
    sharedCache: ops.has(GQA_OP),
    loneRowDiffers: LONE_ROW_OPS.some((op) => ops.has(op)),
    vocabSize: typeof vocab === 'number' ? vocab : undefined,
  };
}

function groupQueryAttentionError(file: string, evidence: string): Error {
  return new Error(
    `${file} uses GroupQueryAttention with ${evidence} as graph inputs, which this engine does ` +
      `not fill. Export the model with onnxruntime-genai's model builder (which derives them ` +
      `from attention_mask) or with Optimum (plain attention) instead.`,
  );
}

/**
 * Which of `names` (op types) a graph's nodes use. Op types are plain strings in the protobuf,
 * so the file is scanned for them (weights stored in the file are scanned too: a few hundred
 * MB at disk speed, once per worker).
 */
export async function findOpTypes(
  path: string,
  names: readonly string[],
): Promise<ReadonlySet<string>> {
  const wanted = names.map((name) => Buffer.from(name));
  const found = new Set<string>();
  const handle = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(8 << 20);
    const overlap = Math.max(...wanted.map((name) => name.length)) - 1;
    let position = 0;
    let carried = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, carried, chunk.length - carried, position);
      if (bytesRead === 0) return found;
      const filled = carried + bytesRead;
      const seen = chunk.subarray(0, filled);
      for (const [i, name] of wanted.entries()) {
        if (!found.has(names[i]) && seen.includes(name)) found.add(names[i]);
      }
      if (found.size === names.length) return found;
      position += bytesRead;
      carried = Math.min(overlap, filled);
      chunk.copy(chunk, 0, filled - carried, filled);
    }
  } finally {
    await handle.close();
  }
}
