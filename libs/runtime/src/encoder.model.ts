// A sentence-embedding encoder (BERT-style ONNX export + tokenizer) served by worker threads:
// tokenization and forward passes never run on the caller's event loop.
import { resolve } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { readEncoderConfig } from './encoder.config';
import { OrtWorkerPool } from './ort-worker.pool';
import type { EmbedJob, EncoderInput, EncoderRejection } from './ort-worker.protocol';
import type { Pooling } from './pooling';

/** What became of one input: its L2-normalised embedding, or why the model did not take it. */
export type EncoderOutcome =
  | { readonly tokens: number; readonly vector: Float32Array }
  | { readonly tokens: number; readonly rejection: EncoderRejection };

export interface EncoderModelOptions {
  readonly modelDir: string;
  /** Graph file relative to `modelDir`. Default `onnx/model.onnx`. */
  readonly onnxFile?: string;
  /** Worker threads, each with its own session and tokenizer. Default 1. */
  readonly workers?: number;
  /** ORT intra-op threads per worker. Default: cores shared evenly among the workers. */
  readonly intraOpThreads?: number;
  readonly executionProviders?: readonly InferenceSession.ExecutionProviderConfig[];
  /** Overrides the pooling read from the sentence-transformers files. */
  readonly pooling?: Pooling;
}

/** Graph inputs this class knows how to fill. */
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);

/** Preferred output, in order: token states to pool, then already-pooled sentence vectors. */
const OUTPUT_PREFERENCE = ['last_hidden_state', 'sentence_embedding', 'token_embeddings'];

/** Below this many texts a tokenize call goes to one worker; splitting costs more than it saves. */
const TOKENIZE_SPLIT_THRESHOLD = 64;
/**
 * Most texts per tokenize job. Receiving a reply (structured-clone of number[][]) happens on the
 * main thread; smaller replies keep each such pause short.
 */
const TOKENIZE_MAX_CHUNK = 256;

export class EncoderModel {
  private constructor(
    private readonly pool: OrtWorkerPool,
    readonly modelDir: string,
    readonly dimensions: number,
    readonly vocabSize: number,
    readonly maxTokens: number,
    readonly pooling: Pooling,
    readonly padTokenId: number,
    private readonly outputName: string,
  ) {}

  static async load(options: EncoderModelOptions): Promise<EncoderModel> {
    const modelDir = resolve(options.modelDir);
    const config = await readEncoderConfig(modelDir, options.onnxFile ?? 'onnx/model.onnx');
    const pool = new OrtWorkerPool({
      modelPath: config.onnxPath,
      workers: options.workers,
      intraOpNumThreads: options.intraOpThreads,
      executionProviders: options.executionProviders,
      tokenizerDir: modelDir,
    });
    await pool.start();
    try {
      const { inputNames, outputNames } = pool;
      const unknown = inputNames.filter((name) => !KNOWN_INPUTS.has(name));
      if (!inputNames.includes('input_ids') || unknown.length > 0) {
        throw new Error(
          `${config.onnxPath} is not an encoder export: inputs [${inputNames.join(', ')}], ` +
            `expected input_ids and optionally attention_mask, token_type_ids`,
        );
      }
      const outputName =
        OUTPUT_PREFERENCE.find((name) => outputNames.includes(name)) ?? outputNames[0];
      return new EncoderModel(
        pool,
        modelDir,
        config.dimensions,
        config.vocabSize,
        config.maxTokens,
        options.pooling ?? config.pooling,
        // Without a pad token any id will do: padded positions are masked out.
        pool.info.padTokenId ?? 0,
        outputName,
      );
    } catch (error) {
      await pool.close();
      throw error;
    }
  }

  get workers(): number {
    return this.pool.size;
  }

  /**
   * Token ids with the model's special tokens, neither truncated nor padded: rejecting inputs
   * longer than `maxTokens` is the caller's decision, never a silent cut. Large calls are split
   * across the workers.
   */
  async tokenize(texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const parts = texts.length < TOKENIZE_SPLIT_THRESHOLD ? 1 : this.pool.size;
    const size = Math.min(TOKENIZE_MAX_CHUNK, Math.ceil(texts.length / parts));
    const chunks: Promise<number[][]>[] = [];
    for (let start = 0; start < texts.length; start += size) {
      chunks.push(this.pool.execute('tokenize', { texts: texts.slice(start, start + size) }));
    }
    return (await Promise.all(chunks)).flat();
  }

  /**
   * Embeds texts (tokenized in the worker) and token-id sequences in one worker job: one batch,
   * grouped by length so that padding stays small. Each input comes back as a vector of
   * `dimensions` floats in its own buffer, or as a rejection (empty, ids outside the vocabulary,
   * longer than `maxTokens`: never truncated). `requests` names the request of each input; one
   * rejected input skips the rest of its request.
   */
  async embed(
    inputs: readonly EncoderInput[],
    requests?: readonly number[],
  ): Promise<EncoderOutcome[]> {
    if (inputs.length === 0) return [];
    const { embeddings, dimensions, tokens, rejections } = await this.pool.execute(
      'embed',
      this.job(inputs, requests),
    );
    if (dimensions !== 0 && dimensions !== this.dimensions) {
      throw new Error(
        `${this.outputName} has ${dimensions} dimensions but config.json says ${this.dimensions}`,
      );
    }
    return inputs.map((_, i) => {
      const rejection = rejections[i];
      if (rejection) return { tokens: tokens[i], rejection };
      return { tokens: tokens[i], vector: embeddings.slice(i * dimensions, (i + 1) * dimensions) };
    });
  }

  /** One tiny forward pass on every worker, so the first real request pays no first-run cost. */
  async warmup(): Promise<void> {
    const job = this.job([[this.padTokenId]]);
    await Promise.all(
      Array.from({ length: this.pool.size }, (_, worker) =>
        this.pool.execute('embed', job, { worker }),
      ),
    );
  }

  private job(inputs: readonly EncoderInput[], requests?: readonly number[]): EmbedJob {
    return {
      inputs,
      requests,
      maxTokens: this.maxTokens,
      padTokenId: this.padTokenId,
      vocabSize: this.vocabSize,
      pooling: this.pooling,
      outputName: this.outputName,
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
