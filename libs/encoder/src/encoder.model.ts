// A sentence-embedding encoder (BERT-style ONNX export + tokenizer) served by worker threads:
// tokenization and forward passes never run on the caller's event loop.
import { resolve } from 'node:path';
import { engineModule, type OrtWorkerPool, type RuntimeOptions } from '@tessera/runtime';
import { readEncoderConfig } from './encoder.config';
import { withEncoderPool } from './encoder.pool';
import type {
  EmbedJob,
  EncoderEngineTypes,
  EncoderInput,
  EncoderRejection,
} from './encoder.protocol';
import type { Pooling } from './pooling';

/** What became of one input: its L2-normalised embedding, or why the model did not take it. */
export type EncoderOutcome =
  | { readonly tokens: number; readonly vector: Float32Array }
  | { readonly tokens: number; readonly rejection: EncoderRejection };

export interface EncoderModelOptions {
  readonly modelDir: string;
  /** Graph file relative to `modelDir`. Default `onnx/model.onnx`. */
  readonly onnxFile?: string;
  /** Workers (each with its own session and tokenizer) and session settings. */
  readonly runtime?: Partial<RuntimeOptions>;
  /** Most tokens the inputs of one request may add up to. Default 300,000 (as OpenAI's). */
  readonly maxRequestTokens?: number;
  /** Where worker warnings go (e.g. an execution provider fallback). */
  readonly onWarning?: (message: string) => void;
}

/** The engine every EncoderModel's workers run. */
const ENCODER_ENGINE = engineModule<EncoderEngineTypes>(__dirname, 'encoder.engine');

/**
 * No tokenizer we serve averages more than ~6 characters a token on real text; a text longer
 * than this many characters per token of the model's limit cannot fit and is refused before
 * it is tokenized (tokenizing megabytes takes seconds of a worker every request waits behind).
 */
export const MAX_CHARS_PER_TOKEN = 16;

/** OpenAI's cap on the tokens of one embeddings request, summed over its inputs. */
export const DEFAULT_MAX_REQUEST_TOKENS = 300_000;

/** The first input of a request the model refuses before any work, and why. */
export interface EarlyRejection {
  readonly index: number;
  readonly tokens: number;
  readonly rejection: EncoderRejection;
}

/** Preferred output, in order: token states to pool, then already-pooled sentence vectors. */
const OUTPUT_PREFERENCE = ['last_hidden_state', 'sentence_embedding', 'token_embeddings'];

export class EncoderModel {
  /** Longest text (in characters) that is tokenized at all. */
  readonly maxInputChars: number;

  private constructor(
    private readonly pool: OrtWorkerPool<EncoderEngineTypes>,
    readonly dimensions: number,
    readonly vocabSize: number,
    readonly maxTokens: number,
    readonly maxRequestTokens: number,
    readonly pooling: Pooling,
    readonly padTokenId: number,
    private readonly outputName: string,
  ) {
    this.maxInputChars = maxTokens * MAX_CHARS_PER_TOKEN;
  }

  static async load(options: EncoderModelOptions): Promise<EncoderModel> {
    const modelDir = resolve(options.modelDir);
    const config = await readEncoderConfig(modelDir, options.onnxFile ?? 'onnx/model.onnx');
    return withEncoderPool(
      {
        engine: ENCODER_ENGINE,
        modelDir,
        onnxPath: config.onnxPath,
        runtime: options.runtime,
        onWarning: options.onWarning,
      },
      (pool) => {
        const { outputNames } = pool.info;
        const outputName =
          OUTPUT_PREFERENCE.find((name) => outputNames.includes(name)) ?? outputNames[0];
        return new EncoderModel(
          pool,
          config.dimensions,
          config.vocabSize,
          config.maxTokens,
          options.maxRequestTokens ?? DEFAULT_MAX_REQUEST_TOKENS,
          config.pooling,
          // Without a pad token any id will do: padded positions are masked out.
          pool.info.padTokenId ?? 0,
          outputName,
        );
      },
    );
  }

  get workers(): number {
    return this.pool.size;
  }

  /**
   * What can be refused on the caller's thread, before queueing: a text longer in characters
   * than any input that fits, token ids beyond the limit, a request over the token cap by its
   * token ids alone. Everything else is checked in the worker, tokenizing at most ~limit + 1
   * tokens of each text.
   */
  refuseEarly(inputs: readonly EncoderInput[]): EarlyRejection | undefined {
    let requestTokens = 0;
    for (const [index, input] of inputs.entries()) {
      if (typeof input === 'string') {
        if (input.length > this.maxInputChars) {
          const rejection = { reason: 'too_many_characters', characters: input.length } as const;
          return { index, tokens: 0, rejection };
        }
        continue;
      }
      const tokens = input.length;
      requestTokens += tokens;
      if (tokens > this.maxTokens) return { index, tokens, rejection: { reason: 'too_long' } };
      if (requestTokens > this.maxRequestTokens) {
        return { index, tokens, rejection: { reason: 'request_too_long', requestTokens } };
      }
    }
    return undefined;
  }

  /**
   * Embeds texts (tokenized in the worker) and token-id sequences in one worker job: one batch,
   * grouped by length so that padding stays small. Each input comes back as a vector of
   * `dimensions` floats in its own buffer, or as a rejection (empty, ids outside the vocabulary,
   * longer than `maxTokens`: never truncated). `requests` names the request of each input; one
   * rejected input skips the rest of its request. Whether each request's caller is still there
   * is the micro-batcher's to check before the batch forms: a batch mixes requests.
   */
  async embed(
    inputs: readonly EncoderInput[],
    requests?: readonly number[],
  ): Promise<EncoderOutcome[]> {
    if (inputs.length === 0) return [];
    const { embeddings, dimensions, tokens, rejections } = await this.pool.execute(
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
      Array.from({ length: this.pool.size }, (_, worker) => this.pool.execute(job, { worker })),
    );
  }

  private job(inputs: readonly EncoderInput[], requests?: readonly number[]): EmbedJob {
    return {
      inputs,
      requests,
      maxTokens: this.maxTokens,
      maxRequestTokens: this.maxRequestTokens,
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
