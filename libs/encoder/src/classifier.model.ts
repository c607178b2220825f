// A sequence classifier (BERT-style ONNX export with its tokenizer and a classification head)
// served by worker threads: the encoder runtime with a logits head instead of pooling.
// Tokenization, windowing and forward passes never run on the caller's event loop.
import { resolve } from 'node:path';
import { engineModule, type OrtWorkerPool, type RuntimeOptions } from '@tessera/runtime';
import { readClassifierHead } from './classifier.config';
import type { ClassifierEngineTypes, ClassifierRejection } from './classifier.protocol';
import { scoresOverWindows, type Activation } from './classifier.scores';
import { readEncoderConfig } from './encoder.config';
import { MAX_CHARS_PER_TOKEN } from './encoder.model';
import { withEncoderPool } from './encoder.pool';
import { maxWindowedTokens, type TokenWindowing } from './token.windows';

/** What became of one text: a score per label (max over its windows), or why it was refused. */
export type ClassifierOutcome =
  | { readonly tokens: number; readonly windows: number; readonly scores: Float64Array }
  | { readonly tokens: number; readonly rejection: ClassifierRejection };

export interface ClassifierModelOptions {
  readonly modelDir: string;
  /** Graph file relative to `modelDir`. Default `onnx/model.onnx`. */
  readonly onnxFile?: string;
  readonly runtime?: Partial<RuntimeOptions>;
  /** Tokens each window shares with the next. Default 64. */
  readonly windowOverlap?: number;
  /** Most windows one text may be split into. Default 16. */
  readonly maxWindows?: number;
  /** Instead of the one config.json's problem_type implies. */
  readonly activation?: Activation;
  readonly onWarning?: (message: string) => void;
}

const CLASSIFIER_ENGINE = engineModule<ClassifierEngineTypes>(__dirname, 'classifier.engine');

export class ClassifierModel {
  /** Longest text (in characters) that is tokenized at all. */
  readonly maxInputChars: number;

  private constructor(
    private readonly pool: OrtWorkerPool<ClassifierEngineTypes>,
    /** Label of each score, by index (config.json id2label). */
    readonly labels: readonly string[],
    readonly activation: Activation,
    readonly windowing: TokenWindowing,
    /** Most tokens a text may have (its windows together, overlap counted once). */
    readonly maxTextTokens: number,
    private readonly padTokenId: number,
    private readonly outputName: string,
  ) {
    this.maxInputChars = maxTextTokens * MAX_CHARS_PER_TOKEN;
  }

  static async load(options: ClassifierModelOptions): Promise<ClassifierModel> {
    const modelDir = resolve(options.modelDir);
    const config = await readEncoderConfig(modelDir, options.onnxFile ?? 'onnx/model.onnx');
    const head = await readClassifierHead(modelDir);
    return withEncoderPool(
      {
        engine: CLASSIFIER_ENGINE,
        modelDir,
        onnxPath: config.onnxPath,
        runtime: options.runtime,
        onWarning: options.onWarning,
      },
      (pool) => {
        const { outputNames, specials } = pool.info;
        const windowing: TokenWindowing = {
          maxTokens: config.maxTokens,
          overlap: options.windowOverlap ?? 64,
          maxWindows: options.maxWindows ?? 16,
        };
        return new ClassifierModel(
          pool,
          head.labels,
          options.activation ?? head.activation,
          windowing,
          maxWindowedTokens(windowing, specials),
          pool.info.padTokenId ?? 0,
          outputNames.includes('logits') ? 'logits' : outputNames[0],
        );
      },
    );
  }

  get workers(): number {
    return this.pool.size;
  }

  /** The first text longer in characters than any that fits its windows, refused unqueued. */
  refuseEarly(texts: readonly string[]): { index: number; characters: number } | undefined {
    const index = texts.findIndex((text) => text.length > this.maxInputChars);
    return index < 0 ? undefined : { index, characters: texts[index].length };
  }

  /**
   * Scores texts in one worker job (one micro-batch): each text is tokenized, split into
   * windows when longer than the model's context, and scored per label as the max over its
   * windows. Texts that would need more than `maxWindows` windows are refused, never cut.
   */
  async classify(texts: readonly string[]): Promise<ClassifierOutcome[]> {
    if (texts.length === 0) return [];
    const result = await this.pool.execute({
      texts,
      padTokenId: this.padTokenId,
      outputName: this.outputName,
      windowing: this.windowing,
    });
    if (result.labels !== 0 && result.labels !== this.labels.length) {
      throw new Error(
        `${this.outputName} has ${result.labels} logits but config.json names ` +
          `${this.labels.length} labels`,
      );
    }
    const scores = scoresOverWindows(
      result.logits,
      this.labels.length,
      result.windows,
      this.activation,
    );
    return texts.map((_, i) => {
      const rejection = result.rejections[i];
      if (rejection) return { tokens: result.tokens[i], rejection };
      return { tokens: result.tokens[i], windows: result.windows[i], scores: scores[i] };
    });
  }

  /** One tiny forward pass on every worker, so the first real request pays no first-run cost. */
  async warmup(): Promise<void> {
    const job = {
      texts: ['warm up'],
      padTokenId: this.padTokenId,
      outputName: this.outputName,
      windowing: this.windowing,
    };
    await Promise.all(
      Array.from({ length: this.pool.size }, (_, worker) => this.pool.execute(job, { worker })),
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
