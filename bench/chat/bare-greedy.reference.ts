// Reference (a): the least a server can do per token — a bare onnxruntime-node greedy loop on the
// same ONNX file, batch 1, no scheduler, no server: prefill the prompt in one run, then one run
// per token feeding `present.*` back as `past_key_values.*` (ONNX Runtime appends the new
// position, so each step copies the cache once inside the graph). End-of-sequence ids are masked
// so every request makes exactly the asked number of tokens. The same session also times a
// batched decode step at a given past length: the naive batched step (whole cache in, whole cache
// out) that the engine's step-time figure is read against.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { median } from '../lib/latency.stats';

export interface DecoderShape {
  readonly layers: number;
  readonly kvHeads: number;
  readonly headSize: number;
  readonly kvType: 'float32' | 'float16';
  readonly hasPositionIds: boolean;
}

/** End-of-sequence ids from generation_config.json, else config.json. */
export function readEosTokenIds(modelDir: string): number[] {
  for (const file of ['generation_config.json', 'config.json']) {
    try {
      const config = JSON.parse(readFileSync(join(modelDir, file), 'utf8')) as {
        eos_token_id?: number | number[];
      };
      if (config.eos_token_id !== undefined) return [config.eos_token_id].flat();
    } catch {
      // not there: try the next
    }
  }
  return [];
}

function shapeOf(session: InferenceSession): DecoderShape {
  const pasts = session.inputMetadata.filter(
    (m) => m.isTensor && /^past_key_values\.\d+\.key$/.test(m.name),
  );
  const first = pasts[0];
  if (!first?.isTensor) throw new Error('the graph has no past_key_values.N.key inputs');
  const [, kvHeads, , headSize] = first.shape;
  if (typeof kvHeads !== 'number' || typeof headSize !== 'number') {
    throw new Error(`past_key_values.0.key has symbolic heads or head size: ${first.shape}`);
  }
  return {
    layers: pasts.length,
    kvHeads,
    headSize,
    kvType: first.type === 'float16' ? 'float16' : 'float32',
    hasPositionIds: session.inputNames.includes('position_ids'),
  };
}

const int64 = (values: number[], dims: number[]) =>
  new Tensor('int64', BigInt64Array.from(values, BigInt), dims);

export class BareGreedyLoop {
  private constructor(
    private readonly session: InferenceSession,
    readonly shape: DecoderShape,
    private readonly eos: ReadonlySet<number>,
    readonly sessionOptions: InferenceSession.SessionOptions,
  ) {}

  static async load(modelDir: string, onnxFile: string, threads: number): Promise<BareGreedyLoop> {
    const sessionOptions: InferenceSession.SessionOptions = {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    };
    const session = await InferenceSession.create(join(modelDir, onnxFile), sessionOptions);
    return new BareGreedyLoop(
      session,
      shapeOf(session),
      new Set(readEosTokenIds(modelDir)),
      sessionOptions,
    );
  }

  private emptyPast(batch: number, length: number, fill = false): Record<string, Tensor> {
    const { layers, kvHeads, headSize, kvType } = this.shape;
    const size = batch * kvHeads * length * headSize;
    const dims = [batch, kvHeads, length, headSize];
    const feeds: Record<string, Tensor> = {};
    for (let layer = 0; layer < layers; layer++) {
      for (const kind of ['key', 'value']) {
        // fp16 caches are fed as raw 16-bit words: zeros are zeros either way.
        const data = kvType === 'float16' ? new Uint16Array(size) : new Float32Array(size);
        if (fill && data instanceof Float32Array) data.fill(0.01);
        feeds[`past_key_values.${layer}.${kind}`] = new Tensor(kvType, data, dims);
      }
    }
    return feeds;
  }

  /** One run: `tokens` [batch][n] after `pastLength` cached positions. */
  private async step(
    tokens: number[][],
    pastLength: number,
    past: Record<string, Tensor>,
  ): Promise<InferenceSession.OnnxValueMapType> {
    const batch = tokens.length;
    const n = tokens[0].length;
    const total = pastLength + n;
    const feeds: Record<string, Tensor> = {
      ...past,
      input_ids: int64(tokens.flat(), [batch, n]),
      attention_mask: int64(new Array<number>(batch * total).fill(1), [batch, total]),
    };
    if (this.shape.hasPositionIds) {
      const positions = Array.from({ length: n }, (_, i) => pastLength + i);
      feeds.position_ids = int64(Array<number[]>(batch).fill(positions).flat(), [batch, n]);
    }
    return this.session.run(feeds);
  }

  private static presentAsPast(outputs: InferenceSession.OnnxValueMapType): Record<string, Tensor> {
    const past: Record<string, Tensor> = {};
    for (const [name, value] of Object.entries(outputs)) {
      if (name.startsWith('present.')) {
        past[name.replace(/^present\./, 'past_key_values.')] = value as Tensor;
      }
    }
    return past;
  }

  /** Argmax of the last position's logits, end-of-sequence ids excluded. */
  private nextToken(logits: Tensor): number {
    const [, positions, vocab] = logits.dims;
    const data = logits.data as Float32Array;
    const offset = (positions - 1) * vocab;
    let best = -1;
    let bestValue = -Infinity;
    for (let id = 0; id < vocab; id++) {
      const value = data[offset + id];
      if (value > bestValue && !this.eos.has(id)) {
        bestValue = value;
        best = id;
      }
    }
    return best;
  }

  /** Greedy: `outputTokens` ids, `onToken` called as each is known. */
  async generate(
    promptIds: readonly number[],
    outputTokens: number,
    onToken: (id: number) => void,
  ): Promise<number[]> {
    let outputs = await this.step([[...promptIds]], 0, this.emptyPast(1, 0));
    const generated: number[] = [];
    for (;;) {
      const token = this.nextToken(outputs.logits as Tensor);
      generated.push(token);
      onToken(token);
      if (generated.length === outputTokens) return generated;
      const pastLength = promptIds.length + generated.length - 1;
      outputs = await this.step([[token]], pastLength, BareGreedyLoop.presentAsPast(outputs));
    }
  }

  /** Median ms of one decode step of `batch` sequences after `pastLength` positions. */
  async decodeStepMs(batch: number, pastLength: number, steps: number): Promise<number> {
    const past = this.emptyPast(batch, pastLength, true);
    const tokens = Array.from({ length: batch }, () => [1]);
    await this.step(tokens, pastLength, past);
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const start = performance.now();
      await this.step(tokens, pastLength, past);
      times.push(performance.now() - start);
    }
    return median(times);
  }

  release(): Promise<void> {
    return this.session.release();
  }
}
