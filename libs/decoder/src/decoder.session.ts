// One decoder graph as two batched operations, with no scheduling: `prefill` (a chunk of one
// sequence's prompt) and `decode` (one token for every row of a batch). The scheduler and the
// step-time benchmark both drive it.
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { readDecoderConfig } from './decoder.config';
import { DECODER_OPS, describeDecoderGraph, findOpTypes, type DecoderGraph } from './decoder.graph';
import { float16ToFloat32 } from './float16.convert';
import { outputBits } from './float16.tensor';
import { KvBatch, type KvShape } from './kv.batch';
import type { ImageSplice, VisionSessions } from './vision/vision.session';

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
  private readonly outputs: readonly string[];
  private readonly useCache = [
    new Tensor('bool', new Uint8Array([0]), [1]),
    new Tensor('bool', new Uint8Array([1]), [1]),
  ];

  constructor(
    private readonly session: InferenceSession,
    readonly graph: DecoderGraph,
    /** A vision-language model's embed_tokens and vision_encoder (its decoder takes embeddings). */
    readonly vision?: VisionSessions,
  ) {
    if (graph.inputsEmbeds && !vision) {
      throw new Error('the decoder takes inputs_embeds but the model has no embed_tokens graph');
    }
    this.shape = {
      kvHeads: graph.kvHeads,
      headSize: graph.headSize,
      kvType: graph.kvType,
      arrays: graph.pastNames.length,
      padding: graph.sharedCache ? 'right' : 'left',
    };
    this.outputs = ['logits', ...graph.presentNames];
  }

  /**
   * Opens `onnxFile` of `modelDir` (default: onnx/model.onnx, else decoder_model_merged.onnx)
   * with the given session options.
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
    vision?: VisionSessions,
  ): Promise<DecoderSession> {
    const ops = await findOpTypes(path, DECODER_OPS);
    const session = await create(path);
    try {
      const graph = describeDecoderGraph(session, path, declared, ops);
      return new DecoderSession(session, graph, vision);
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
   * Runs the next chunk of one sequence's prompt (`cache` has one row) into its cache. No logits
   * are fetched, so ORT skips the LM head for the chunk: the scheduler feeds a prompt's last
   * token as the sequence's first decode-step input, which gives the first token's logits.
   */
  async prefill(cache: KvBatch, ids: readonly number[], images?: ImageSplice): Promise<void> {
    if (cache.rows !== 1) throw new Error(`prefill takes one sequence, got ${cache.rows}`);
    await this.run(cache, ids, ids.length, this.graph.presentNames, undefined, images);
  }

  /**
   * Prefills several whole prompts in one run (one reading of the weights), into an empty cache
   * with a row each (`KvBatch.empty(shape, prompts.length)`). Shorter prompts are padded in the
   * run on the side the cache is padded (left: their pad positions become holes of the cache,
   * like the padding of a batch; right: they lie beyond the rows' lengths).
   */
  async prefillRows(
    cache: KvBatch,
    prompts: readonly (readonly number[])[],
    minStep = 1,
  ): Promise<void> {
    if (cache.past !== 0 || cache.rows !== prompts.length) {
      throw new Error(`prefillRows takes an empty cache of ${prompts.length} rows`);
    }
    const step = Math.max(minStep, ...prompts.map((ids) => ids.length));
    const left = this.shape.padding === 'left';
    const tokens = prompts.flatMap((ids) => {
      const pads = new Array<number>(step - ids.length).fill(0);
      return left ? [...pads, ...ids] : [...ids, ...pads];
    });
    const added = prompts.map((ids) => ids.length);
    await this.run(cache, tokens, step, this.graph.presentNames, added);
  }

  /**
   * One decode step: `tokens[row]` is the next input of each row of `cache`. Returns the logits
   * of every row, row after row (`rows × vocab` floats; a view, valid until the next run).
   */
  async decode(cache: KvBatch, tokens: readonly number[]): Promise<Float32Array> {
    if (tokens.length !== cache.rows) {
      throw new Error(`decode takes one token per row: ${tokens.length} for ${cache.rows} rows`);
    }
    return this.float32((await this.run(cache, tokens, 1, this.outputs)).logits);
  }

  async release(): Promise<void> {
    await this.vision?.release();
    await this.session.release();
  }

  /** float16 logits (q4f16 exports) are converted into a reused buffer; float32 pass as is. */
  private float32(output: InferenceSession.OnnxValueMapType[string]): Float32Array {
    const logits = outputBits(output.data);
    if (logits instanceof Float32Array) return logits;
    if (this.logits32.length < logits.length) this.logits32 = new Float32Array(logits.length);
    return float16ToFloat32(logits, this.logits32);
  }

  /**
   * Runs `step` new positions of every row (`tokens`: rows × step), fetching `outputs` (the
   * presents at least). `added[r]` (default `step`) of row r's positions are real, the last
   * ones (left-padded caches) or the first (right-padded); only a row with an empty past may
   * have fewer, so its holes stay at its start (left) or beyond its length (right).
   */
  private async run(
    cache: KvBatch,
    tokens: readonly number[],
    step: number,
    outputs: readonly string[],
    added?: readonly number[],
    images?: ImageSplice,
  ): Promise<InferenceSession.ReturnType> {
    // The feeds live in reused buffers that ORT reads when the run starts (on a later tick).
    if (this.running) throw new Error('a DecoderSession runs one prefill or decode at a time');
    this.running = true;
    try {
      cache.reserve(step, added);
      const feeds = this.feeds(cache, tokens, step, added);
      if (this.graph.inputsEmbeds) await this.embed(feeds, cache.rows, step, images);
      const out = await this.session.run(feeds, this.fetches(feeds, outputs));
      cache.advance(
        this.graph.presentNames.map((name) => outputBits(out[name].data)),
        step,
        added,
      );
      return out;
    } finally {
      this.running = false;
    }
  }

  /**
   * A vision-language decoder takes embeddings: embed_tokens on the ids, then (prefill of a
   * prompt with images) the image features over the image tokens' rows.
   */
  private async embed(
    feeds: Record<string, Tensor>,
    rows: number,
    step: number,
    images: ImageSplice | undefined,
  ): Promise<void> {
    const vision = this.vision as VisionSessions;
    const ids = feeds.input_ids.data as BigInt64Array;
    const embeds = await vision.embedTokens(ids, rows, step);
    if (images) vision.splice(embeds.data as Float32Array, ids, images);
    delete feeds.input_ids;
    feeds.inputs_embeds = embeds;
  }

  private feeds(
    cache: KvBatch,
    tokens: readonly number[],
    step: number,
    added: readonly number[] | undefined,
  ): Record<string, Tensor> {
    const { rows, lengths } = cache;
    const left = cache.shape.padding === 'left';
    const real = (row: number) => (added ? added[row] : step);
    // Left: every row spans the whole past; right: the widest row's valid positions.
    const total = left ? cache.past + step : Math.max(...lengths.map((n, r) => n + real(r)));
    const ids = this.ids.take(rows * step);
    for (let i = 0; i < ids.length; i++) ids[i] = BigInt(tokens[i]);
    // Row r's real positions: its last `lengths[r] + added[r]` (left), its first (right).
    const mask = this.mask.take(rows * total);
    mask.fill(1n);
    for (let row = 0; row < rows; row++) {
      const valid = lengths[row] + real(row);
      if (left) mask.fill(0n, row * total, (row + 1) * total - valid);
      else mask.fill(0n, row * total + valid, (row + 1) * total);
    }
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor('int64', ids, [rows, step]),
      attention_mask: new Tensor('int64', mask, [rows, total]),
    };
    if (this.graph.positionIds) {
      const positions = this.positions.take(rows * step);
      for (let row = 0; row < rows; row++) {
        // The run's pads (before the real positions when left-padded, after them when
        // right-padded) are never attended to; position 0 keeps them in range.
        const pads = step - real(row);
        for (let j = 0; j < step; j++) {
          const at = left ? j - pads : j;
          positions[row * step + j] = BigInt(at < 0 || at >= real(row) ? 0 : lengths[row] + at);
        }
      }
      feeds.position_ids = new Tensor('int64', positions, [rows, step]);
    }
    if (this.graph.useCacheBranch) feeds.use_cache_branch = this.useCache[cache.past > 0 ? 1 : 0];
    const pasts = cache.tensors();
    this.graph.pastNames.forEach((name, i) => (feeds[name] = pasts[i]));
    return feeds;
  }

  /**
   * What a run fetches: the outputs by name, and for a shared cache each `present.*` into the
   * very tensor fed as its past, so that the graph appends to the cache in place.
   */
  private fetches(
    feeds: Record<string, Tensor>,
    outputs: readonly string[],
  ): readonly string[] | Record<string, Tensor | null> {
    if (!this.graph.sharedCache) return outputs;
    const fetches: Record<string, Tensor | null> = {};
    for (const name of outputs) fetches[name] = null;
    this.graph.presentNames.forEach((name, i) => (fetches[name] = feeds[this.graph.pastNames[i]]));
    return fetches;
  }
}
