// One deterministic input for any graph Tessera serves, built from the graph's input metadata:
// the symbolic dimensions are named alike across the Optimum, Piper and SmolVLM exports, and so
// are the inputs, so names decide both the shapes and the values (token ids, masks, positions,
// past keys/values, audio features, pixels). The same feeds go to the `cpu` and the `webgpu`
// session, whose outputs are then compared.
import { Tensor, type InferenceSession } from 'onnxruntime-node';

export interface FeedShape {
  /** New tokens (or phonemes) in this run. */
  readonly sequence: number;
  /** Tokens already in the past key/values; 0 is a prefill (the merged decoders' first branch). */
  readonly past: number;
}

export type Feeds = Record<string, Tensor>;

export function probeFeeds(
  inputs: readonly InferenceSession.ValueMetadata[],
  shape: FeedShape,
): Feeds {
  const feeds: Feeds = {};
  for (const input of inputs) {
    if (!input.isTensor) throw new Error(`input '${input.name}' is not a tensor`);
    const dims = input.shape.map((dim) => dimension(dim, input.name, shape));
    feeds[input.name] = tensor(input.name, input.type, dims, shape);
  }
  return feeds;
}

function dimension(dim: number | string, input: string, shape: FeedShape): number {
  if (typeof dim === 'number' && dim > 0) return dim;
  const name = String(dim);
  if (name === 'batch_size' || name === 'num_images') return 1;
  if (/^past_(decoder_)?sequence_length$/.test(name)) return shape.past;
  if (name === 'total_sequence_length' || name.includes('+')) return shape.past + shape.sequence;
  if (name === 'encoder_sequence_length') return 1500;
  // `frames`: the log-mel graph's audio frames.
  if (/sequence_length$|^phonemes$|^frames$/.test(name)) return shape.sequence;
  throw new Error(`no size for dimension '${name}' of input '${input}'`);
}

function tensor(name: string, type: string, dims: number[], shape: FeedShape): Tensor {
  const size = dims.reduce((product, dim) => product * dim, 1);
  if (type === 'bool') return new Tensor('bool', [shape.past > 0], dims);
  if (type === 'int64') {
    return new Tensor(
      'int64',
      BigInt64Array.from({ length: size }, (_, i) => tokenValue(name, i, shape)),
      dims,
    );
  }
  if (type !== 'float32') throw new Error(`input '${name}' has type ${type}`);
  // Piper's scales: noise 0 so its graph-internal random draws cancel, length 1.
  if (name === 'scales') return new Tensor('float32', Float32Array.from([0, 1, 0]), dims);
  const amplitude = name.startsWith('past_key_values') ? 0.5 : 1;
  return new Tensor(
    'float32',
    Float32Array.from({ length: size }, (_, i) => amplitude * Math.sin(i * 0.731 + 0.3)),
    dims,
  );
}

function tokenValue(name: string, i: number, shape: FeedShape): bigint {
  switch (name) {
    case 'attention_mask':
      return 1n;
    case 'token_type_ids':
    case 'sid':
      return 0n;
    case 'position_ids':
      return BigInt(shape.past + i);
    case 'input_lengths':
      return BigInt(shape.sequence);
    default:
      // Token or phoneme ids: small, so they exist in every vocabulary and phoneme map.
      return BigInt(1 + ((i * 7) % 40));
  }
}
