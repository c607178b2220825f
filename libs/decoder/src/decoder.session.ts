// One decoder graph as two batched operations, with no scheduling: `prefill` (a chunk of one
// sequence's prompt) and `decode` (one token for every row of a batch). The scheduler and the
// step-time benchmark both drive it.
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { readDecoderConfig } from './decoder.config';
import {
  assertNoGroupQueryAttention,
  describeDecoderGraph,
  type DecoderGraph,
} from './decoder.graph';
import { float16ToFloat32 } from './float16.convert';
import { KvBatch, type KvArray, type KvShape } from './kv.batch';

/** Grows-only int64 scratch, so steady-state steps allocate no feed buffers. */
class Int64Scratch {
  private buffer = new BigInt64Array(0);

  take(length: number): BigInt64Array {
    if (this.buffer.length < length)
      this.buffer = new BigInt64Array(Math.max(length, this.buffer.length * 2));
    return this.buffer.subarray(0, length);
  }
}

export class DecoderSession {
  readonly shape: KvShape;
  private readonly ids = new Int64Scratch();
  private readonly mask = new Int64Scratch();
  private readonly positions = new Int64Scratch();
  private logits32 = new Float32Array(0);
  private running = false;
  private readonly useCache = [
    new Tensor('bool', new Uint8Array([0]), [1]),
    new Tensor('bool', new Uint8Array([1]), [1]),
  ];

  constructor(
    private readonly session: InferenceSession,
    readonly graph: DecoderGraph,
  ) {
    this.shape = {
      kvHeads: graph.kvHeads,
      headSize: graph.headSize,
      kvType: graph.kvType,
      arrays: graph.pastNames.length,
    };
  }

  /**
   * Opens `onnxFile` of `modelDir` (default: onnx/model.onnx, else decoder_model_merged.onnx)
   * with the given session options; refuses GroupQueryAttention graphs.
   */
  static async load(
    modelDir: string,
    onnxFile?: string,
    options: InferenceSession.SessionOptions = {},
  ): Promise<DecoderSession> {
    const config = await readDecoderConfig(modelDir, onnxFile);
    return DecoderSession.open(join(modelDir, config.onnxFile), config, (path) =>
      InferenceSession.create(path, options),
    );
  }

  /** Opens `path` with `create` (e.g. a worker's SessionFactory) and checks it against config. */
  static async open(
    path: string,
    declared: { readonly layers: number; readonly kvHeads: number; readonly headSize: number },
    create: (path: string) => Promise<InferenceSession>,
  ): Promise<DecoderSession> {
    await assertNoGroupQueryAttention(path);
    const session = await create(path);
    try {
      return new DecoderSession(session, describeDecoderGraph(session, path, declared));
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  /** An empty cache for one sequence to prefill. */
  newSequence(): KvBatch {
    return KvBatch.empty(this.shape);
  }

  /**
   * Runs the next chunk of one sequence's prompt (`cache` has one row) and returns the logits
   * of its last position (`vocab` floats; a view, valid until the next run).
   */
  async prefill(cache: KvBatch, ids: readonly number[]): Promise<Float32Array> {
    if (cache.rows !== 1) throw new Error(`prefill takes one sequence, got ${cache.rows}`);
    const logits = await this.run(cache, ids, ids.length);
    const vocab = logits.length / ids.length;
    return this.float32(logits.subarray(logits.length - vocab));
  }

  /**
   * One decode step: `tokens[row]` is the next input of each row of `cache`. Returns the logits
   * of every row, row after row (`rows × vocab` floats; a view, valid until the next run).
   */
  async decode(cache: KvBatch, tokens: readonly number[]): Promise<Float32Array> {
    if (tokens.length !== cache.rows) {
      throw new Error(`decode takes one token per row: ${tokens.length} for ${cache.rows} rows`);
    }
    return this.float32(await this.run(cache, tokens, 1));
  }

  release(): Promise<void> {
    return this.session.release();
  }

  /** float16 logits (q4f16 exports) are converted into a reused buffer; float32 pass as is. */
  private float32(logits: Float32Array | Uint16Array): Float32Array {
    if (logits instanceof Float32Array) return logits;
    if (this.logits32.length < logits.length) this.logits32 = new Float32Array(logits.length);
    return float16ToFloat32(logits, this.logits32);
  }

  /** Runs `step` new positions of every row; returns the raw logits [rows, step, vocab]. */
  private async run(
    cache: KvBatch,
    tokens: readonly number[],
    step: number,
  ): Promise<Float32Array | Uint16Array> {
    // The feeds live in reused buffers that ORT reads when the run starts (on a later tick).
    if (this.running) throw new Error('a DecoderSession runs one prefill or decode at a time');
    this.running = true;
    try {
      return await this.runExclusive(cache, tokens, step);
    } finally {
      this.running = false;
    }
  }

  private async runExclusive(
    cache: KvBatch,
    tokens: readonly number[],
    step: number,
  ): Promise<Float32Array | Uint16Array> {
    const { rows, past, lengths } = cache;
    const total = past + step;
    const ids = this.ids.take(rows * step);
    for (let i = 0; i < ids.length; i++) ids[i] = BigInt(tokens[i]);
    // Left padding: row r's holes are its first `past - lengths[r]` positions.
    const mask = this.mask.take(rows * total);
    mask.fill(1n);
    for (let row = 0; row < rows; row++)
      mask.fill(0n, row * total, row * total + past - lengths[row]);
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor('int64', ids, [rows, step]),
      attention_mask: new Tensor('int64', mask, [rows, total]),
    };
    if (this.graph.positionIds) {
      const positions = this.positions.take(rows * step);
      for (let row = 0; row < rows; row++) {
        for (let j = 0; j < step; j++) positions[row * step + j] = BigInt(lengths[row] + j);
      }
      feeds.position_ids = new Tensor('int64', positions, [rows, step]);
    }
    if (this.graph.useCacheBranch) feeds.use_cache_branch = this.useCache[past > 0 ? 1 : 0];
    const pasts = cache.tensors();
    this.graph.pastNames.forEach((name, i) => (feeds[name] = pasts[i]));
    const out = await this.session.run(feeds);
    cache.advance(
      this.graph.presentNames.map((name) => out[name].data as KvArray),
      step,
    );
    return out.logits.data as Float32Array | Uint16Array;
  }
}
