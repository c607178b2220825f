// Loads, warms and looks up the embeddings models the models file lists for this service.
import { Injectable } from '@nestjs/common';
import { onnxFileFor, type ModelSpec } from '@tessera/models';
import {
  EncoderModel,
  batchItemsHistogram,
  encoderBatcher,
  estimatedTokens,
  EmbeddingModelOptionsSchema,
  type EmbeddingModelOptions,
  type EncoderInput,
  type EncoderOutcome,
} from '@tessera/encoder';
import type { MicroBatcher, WorkBounds } from '@tessera/runtime';
import { ServedModels, type ModelToOpen } from '@tessera/service';

/** One input waiting in the micro-batcher, with the request it belongs to. */
interface QueuedInput {
  readonly input: EncoderInput;
  readonly request: number;
}

export interface EmbeddingModel {
  spec: ModelSpec;
  encoder: EncoderModel;
  batcher: MicroBatcher<QueuedInput, EncoderOutcome>;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`), not the load time. */
  created: number;
}

@Injectable()
export class EmbeddingModels extends ServedModels<
  EmbeddingModel,
  typeof EmbeddingModelOptionsSchema
> {
  protected readonly capability = 'embeddings';
  protected readonly optionsSchema = EmbeddingModelOptionsSchema;
  private readonly batchItems = batchItemsHistogram(
    this.metrics,
    'embeddings',
    'Inputs per model run (micro-batch) of an embeddings model',
  );
  private nextRequest = 0;

  /**
   * Embeds one request's inputs; they may share a batch with other requests'. Dropped unrun
   * when `bounds` say the caller is gone; refused with QueueFullError when the model's queue
   * is full.
   */
  embed(
    model: EmbeddingModel,
    inputs: readonly EncoderInput[],
    bounds: WorkBounds = {},
  ): Promise<EncoderOutcome[]> {
    const request = this.nextRequest++;
    return model.batcher.submit(
      inputs.map((input) => ({ input, request })),
      bounds,
    );
  }

  protected async open(entry: ModelToOpen<EmbeddingModelOptions>): Promise<EmbeddingModel> {
    const { spec, options, modelDir, created } = entry;
    const encoder = this.closesWithService(
      await EncoderModel.load({
        modelDir,
        onnxFile: onnxFileFor(spec),
        runtime: options,
        maxRequestTokens: options.max_request_tokens,
        onWarning: (message) => this.logger.warn(message),
      }),
    );
    await encoder.warmup();
    const batcher = this.closesWithService(
      encoderBatcher<QueuedInput, EncoderOutcome>(options, {
        workers: encoder.workers,
        cost: (item) => estimatedTokens(item.input),
        run: (items) =>
          encoder.embed(
            items.map((item) => item.input),
            items.map((item) => item.request),
          ),
        observe: (items) => this.batchItems.observe({ model: spec.id }, items),
      }),
    );
    this.logger.log(
      `loaded ${spec.id} (${encoder.dimensions} dims, max ${encoder.maxTokens} tokens, ` +
        `${encoder.pooling} pooling) from ${modelDir}`,
    );
    return { spec, encoder, batcher, created };
  }
}
