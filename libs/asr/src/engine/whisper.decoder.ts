// The merged decoder (decoder_model_merged.onnx) run one step at a time with its KV cache, and
// the stepping of concurrent sequences together. The graph has no attention mask and takes the
// positions from the past length, so only sequences at the same past length, feeding the same
// number of tokens, can share a run: a step waits for the current event-loop turn, then the
// pending steps are grouped by (past length, tokens) and each group is one batched run. Two jobs
// that started together stay in step; one that joins later runs alone (batching it with others
// would need padding and a mask the export does not have).
import { Tensor, type InferenceSession } from 'onnxruntime-node';

/** One sequence's cache: the decoder self-attention KV grows, the cross-attention KV is fixed. */
export interface DecoderState {
  /** Encoder output [1, frames, dModel]; needed by the first step only. */
  readonly encoder: Tensor;
  /** present.{i}.decoder.{key,value} of the last step, as past_key_values.{i}.decoder.*. */
  self?: Record<string, Tensor>;
  /** present.{i}.encoder.{key,value} of the first step, reused by every later one. */
  cross?: Record<string, Tensor>;
  /** Positions in the self-attention cache. */
  length: number;
  /** The batch this sequence last ran in (its caches as that run's batched tensors). */
  batch?: KvBatch;
}

/**
 * The caches of sequences that ran together, batched. While the same sequences keep stepping
 * together (the common case: jobs that started together), the next run takes these tensors as
 * they are; rows are copied out only when the membership changes. The cross-attention KV
 * (frames × dModel per layer, megabytes per sequence) would otherwise be copied every step.
 */
interface KvBatch {
  readonly members: readonly DecoderState[];
  readonly self: Record<string, Tensor>;
  readonly cross: Record<string, Tensor>;
}

export interface StepOutput {
  /** [tokens, vocab] logits of the step's input positions. */
  readonly logits: Float32Array;
  /** Per alignment head, [tokens, frames] cross-attention weights (when asked). */
  readonly attention?: Float32Array[];
}

interface PendingStep {
  readonly state: DecoderState;
  readonly ids: readonly number[];
  readonly attention: boolean;
  readonly resolve: (output: StepOutput) => void;
  readonly reject: (error: unknown) => void;
}

export interface DecoderGraph {
  readonly layers: number;
  readonly heads: number;
  readonly headSize: number;
  readonly dModel: number;
  readonly vocabSize: number;
  readonly hasCrossAttentions: boolean;
}

export class WhisperDecoder {
  private pending: PendingStep[] = [];
  private flushScheduled = false;
  private readonly noCache = new Tensor('bool', new Uint8Array([0]), [1]);
  private readonly withCache = new Tensor('bool', new Uint8Array([1]), [1]);

  constructor(
    private readonly session: InferenceSession,
    readonly graph: DecoderGraph,
    private readonly alignmentHeads: readonly (readonly [number, number])[],
    private readonly maxBatch: number,
  ) {}

  /** Feeds `ids` after the state's cache; updates the state's cache. */
  step(state: DecoderState, ids: readonly number[], attention: boolean): Promise<StepOutput> {
    return new Promise((resolve, reject) => {
      this.pending.push({ state, ids, attention, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const steps = this.pending;
    this.pending = [];
    const groups = new Map<string, PendingStep[]>();
    for (const step of steps) {
      const key = `${step.state.length}:${step.ids.length}`;
      groups.set(key, [...(groups.get(key) ?? []), step]);
    }
    for (const group of groups.values())
      for (let start = 0; start < group.length; start += this.maxBatch) {
        const batch = group.slice(start, start + this.maxBatch);
        this.runGroup(batch).catch((error: unknown) => {
          for (const step of batch) step.reject(error);
        });
      }
  }

  private async runGroup(group: PendingStep[]): Promise<void> {
    const { layers, heads, headSize, dModel, vocabSize } = this.graph;
    const rows = group.length;
    const tokens = group[0].ids.length;
    const first = group[0].state.length === 0;
    const ids = new BigInt64Array(rows * tokens);
    group.forEach((step, row) => step.ids.forEach((id, t) => (ids[row * tokens + t] = BigInt(id))));
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor('int64', ids, [rows, tokens]),
      use_cache_branch: first ? this.noCache : this.withCache,
    };
    if (first) {
      feeds.encoder_hidden_states = concatRows(group.map((step) => step.state.encoder));
      const empty = new Tensor('float32', new Float32Array(0), [rows, heads, 0, headSize]);
      for (let layer = 0; layer < layers; layer++)
        for (const part of ['decoder', 'encoder'])
          for (const kind of ['key', 'value'])
            feeds[`past_key_values.${layer}.${part}.${kind}`] = empty;
    } else {
      // Unused by the cached branch, but an input of the merged graph: a 1-frame stand-in.
      feeds.encoder_hidden_states = new Tensor('float32', new Float32Array(rows * dModel), [
        rows,
        1,
        dModel,
      ]);
      const states = group.map((step) => step.state);
      const batch = states[0].batch;
      const same =
        rows > 1 &&
        batch !== undefined &&
        batch.members.length === rows &&
        batch.members.every((member, row) => member === states[row]);
      for (const state of states) if (!same) unbatch(state);
      for (let layer = 0; layer < layers; layer++)
        for (const kind of ['key', 'value']) {
          const self = `past_key_values.${layer}.decoder.${kind}`;
          const cross = `past_key_values.${layer}.encoder.${kind}`;
          feeds[self] = same
            ? batch!.self[self]
            : concatRows(states.map((state) => state.self![self]));
          feeds[cross] = same
            ? batch!.cross[cross]
            : concatRows(states.map((state) => state.cross![cross]));
        }
    }
    const wantAttention = group.some((step) => step.attention) && this.graph.hasCrossAttentions;
    const fetches = ['logits'];
    for (let layer = 0; layer < layers; layer++)
      for (const kind of ['key', 'value']) {
        fetches.push(`present.${layer}.decoder.${kind}`);
        if (first) fetches.push(`present.${layer}.encoder.${kind}`);
      }
    const attentionLayers = [...new Set(this.alignmentHeads.map(([layer]) => layer))];
    if (wantAttention)
      for (const layer of attentionLayers) fetches.push(`cross_attentions.${layer}`);
    const out = await this.session.run(feeds, fetches);
    const self: Record<string, Tensor> = {};
    const cross: Record<string, Tensor> = {};
    for (let layer = 0; layer < layers; layer++)
      for (const kind of ['key', 'value']) {
        self[`past_key_values.${layer}.decoder.${kind}`] = out[`present.${layer}.decoder.${kind}`];
        const name = `past_key_values.${layer}.encoder.${kind}`;
        cross[name] = first ? out[`present.${layer}.encoder.${kind}`] : feeds[name];
      }
    const batch: KvBatch | undefined =
      rows > 1 ? { members: group.map((step) => step.state), self, cross } : undefined;
    group.forEach((step, row) => {
      const state = step.state;
      state.batch = batch;
      state.self = batch ? undefined : self;
      state.cross = batch ? undefined : cross;
      state.length += tokens;
      const logitsData = out.logits.data as Float32Array;
      const size = tokens * vocabSize;
      const logits = logitsData.slice(row * size, (row + 1) * size);
      let attention: Float32Array[] | undefined;
      if (step.attention && wantAttention)
        attention = this.alignmentHeads.map(([layer, head]) => {
          const tensor = out[`cross_attentions.${layer}`];
          const frames = tensor.dims[3];
          const data = tensor.data as Float32Array;
          const offset = (row * heads + head) * tokens * frames;
          return data.slice(offset, offset + tokens * frames);
        });
      step.resolve({ logits, attention });
    });
  }
}

/** Gives a sequence its own caches again (its row of the batch it last ran in). */
function unbatch(state: DecoderState): void {
  const batch = state.batch;
  if (!batch) return;
  const row = batch.members.indexOf(state);
  const rows = batch.members.length;
  state.self = Object.fromEntries(
    Object.entries(batch.self).map(([name, tensor]) => [name, rowOf(tensor, row, rows)]),
  );
  state.cross = Object.fromEntries(
    Object.entries(batch.cross).map(([name, tensor]) => [name, rowOf(tensor, row, rows)]),
  );
  state.batch = undefined;
}

/** Concatenates [1, ...] tensors along the first axis (no copy for one). */
function concatRows(tensors: readonly Tensor[]): Tensor {
  if (tensors.length === 1) return tensors[0];
  const size = tensors[0].data.length;
  const data = new Float32Array(size * tensors.length);
  tensors.forEach((tensor, row) => data.set(tensor.data as Float32Array, row * size));
  return new Tensor('float32', data, [tensors.length, ...tensors[0].dims.slice(1)]);
}

/** Row `row` of a batched output, as a [1, ...] tensor (the output itself for one row). */
function rowOf(tensor: Tensor, row: number, rows: number): Tensor {
  if (rows === 1) return tensor;
  const size = tensor.data.length / rows;
  const data = (tensor.data as Float32Array).slice(row * size, (row + 1) * size);
  return new Tensor('float32', data, [1, ...tensor.dims.slice(1)]);
}
