// Loads, warms and looks up the embeddings models the models file lists for this service.
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ModelInfo } from '@tessera/contracts';
import {
  ModelStore,
  loadModelsFile,
  modelsFor,
  onnxFileFor,
  type ModelSpec,
} from '@tessera/models';
import { EncoderModel, MicroBatcher } from '@tessera/runtime';
import { EmbeddingModelOptionsSchema } from './embedding-model.options';
import { SERVICE_CONFIG, type EmbeddingsServiceConfig } from './embeddings.config';

export interface EmbeddingModel {
  spec: ModelSpec;
  encoder: EncoderModel;
  batcher: MicroBatcher<number[], Float32Array>;
  created: number;
}

@Injectable()
export class EmbeddingModels implements OnApplicationShutdown {
  private readonly logger = new Logger(EmbeddingModels.name);
  private readonly byName = new Map<string, EmbeddingModel>();
  private readonly models: EmbeddingModel[] = [];
  private loaded = false;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: EmbeddingsServiceConfig) {}

  /** Resolves every model locally (never downloads), loads it into workers and warms it. */
  async load(): Promise<void> {
    const file = loadModelsFile(this.config.modelsFile);
    const store = new ModelStore();
    for (const spec of modelsFor(file, 'embeddings')) {
      const parsed = EmbeddingModelOptionsSchema.safeParse(spec.options ?? {});
      if (!parsed.success) {
        throw new Error(
          `invalid options for embeddings model '${spec.id}' in ${file.path}: ` +
            parsed.error.issues
              .map((i) => `${i.path.join('.') || 'options'}: ${i.message}`)
              .join('; '),
        );
      }
      const options = parsed.data;
      const modelDir = await store.resolve(spec);
      const encoder = await EncoderModel.load({
        modelDir,
        onnxFile: onnxFileFor(spec),
        workers: options.workers,
        intraOpThreads: options.intra_op_threads,
      });
      await encoder.warmup();
      const batcher = new MicroBatcher<number[], Float32Array>({
        maxWaitMs: options.max_batch_wait_ms,
        maxBatchCost: options.max_batch_tokens,
        maxBatchItems: options.max_batch_items,
        // One batch per worker at a time: more would only queue inside the pool.
        maxInFlight: encoder.workers,
        cost: (sequence) => sequence.length,
        run: (sequences) => encoder.embed(sequences),
      });
      const model: EmbeddingModel = {
        spec,
        encoder,
        batcher,
        created: Math.floor(Date.now() / 1000),
      };
      this.models.push(model);
      for (const name of [spec.id, ...spec.aliases]) this.byName.set(name, model);
      this.logger.log(
        `loaded ${spec.id} (${encoder.dimensions} dims, max ${encoder.maxTokens} tokens, ` +
          `${encoder.pooling} pooling) from ${modelDir}`,
      );
    }
    this.loaded = true;
  }

  get ready(): boolean {
    return this.loaded;
  }

  find(name: string): EmbeddingModel | undefined {
    return this.byName.get(name);
  }

  list(): ModelInfo[] {
    return this.models.map(({ spec, created }) => ({
      id: spec.id,
      aliases: spec.aliases,
      capabilities: ['embeddings'],
      created,
      owned_by: spec.owned_by,
    }));
  }

  async onApplicationShutdown(): Promise<void> {
    for (const model of this.models) {
      await model.batcher.close();
      await model.encoder.close();
    }
  }
}
