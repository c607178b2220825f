// Loads, warms and looks up the embeddings models the models file lists for this service.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { onnxFileFor, type ModelSpec } from '@tessera/models';
import type { ServiceConfig } from '@tessera/config';
import {
  EncoderModel,
  batchItemsHistogram,
  encoderBatcher,
  estimatedTokens,
  EmbeddingModelOptionsSchema,
  type EncoderInput,
  type EncoderOutcome,
} from '@tessera/encoder';
import { METRICS_REGISTRY } from '@tessera/observability';
import type { MicroBatcher, WorkBounds } from '@tessera/runtime';
import { SERVICE_CONFIG, ServedModels } from '@tessera/service';
import type { Histogram, Registry } from 'prom-client';

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
export class EmbeddingModels {
  private readonly logger = new Logger(EmbeddingModels.name);
  private readonly served = new ServedModels<EmbeddingModel>('embeddings');

  private readonly batchItems: Histogram<'model'>;
  private nextRequest = 0;

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.batchItems = batchItemsHistogram(
      registry,
      'embeddings',
      'Inputs per model run (micro-batch) of an embeddings model',
    );
  }

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

  /** Resolves every model locally (never downloads), loads it into workers and warms it. */
  load(): Promise<void> {
    return this.served.load(
      this.config.modelsFile,
      EmbeddingModelOptionsSchema,
      async ({ spec, options, modelDir, created }) => {
        const encoder = await EncoderModel.load({
          modelDir,
          onnxFile: onnxFileFor(spec),
          runtime: options,
          maxRequestTokens: options.max_request_tokens,
          onWarning: (message) => this.logger.warn(message),
        });
        await encoder.warmup();
        const batcher = encoderBatcher<QueuedInput, EncoderOutcome>(options, {
          workers: encoder.workers,
          cost: (item) => estimatedTokens(item.input),
          run: (items) =>
            encoder.embed(
              items.map((item) => item.input),
              items.map((item) => item.request),
            ),
          observe: (items) => this.batchItems.observe({ model: spec.id }, items),
        });
        this.logger.log(
          `loaded ${spec.id} (${encoder.dimensions} dims, max ${encoder.maxTokens} tokens, ` +
            `${encoder.pooling} pooling) from ${modelDir}`,
        );
        return { spec, encoder, batcher, created };
      },
    );
  }

  /** The loaded model a request names, by id or alias. */
  find(name: string): EmbeddingModel | undefined {
    return this.served.find(name);
  }

  all(): EmbeddingModel[] {
    return this.served.all();
  }

  async close(): Promise<void> {
    for (const model of this.served.all()) {
      await model.batcher.close();
      await model.encoder.close();
    }
  }
}
