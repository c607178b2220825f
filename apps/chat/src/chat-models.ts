// Loads, warms and looks up the chat models the models file lists for this service, and counts
// the generations each is running (tessera_chat_active_generations: 0 again once every caller's
// sequence has left the engine, cancelled ones included).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import {
  DecoderModel,
  DecoderModelOptionsSchema,
  type DecoderModelOptions,
} from '@tessera/decoder';
import { onnxFileFor, type ModelSpec } from '@tessera/models';
import { ServedModels, type ModelToOpen } from '@tessera/service';

export interface ChatModel {
  spec: ModelSpec;
  decoder: DecoderModel;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`), not the load time. */
  created: number;
  contextLength: number;
  /** ['vision'] for a model with a vision encoder (GET /v1/models lists it beside 'chat'). */
  extraCapabilities: string[];
}

@Injectable()
export class ChatModels extends ServedModels<ChatModel, typeof DecoderModelOptionsSchema> {
  protected readonly capability = 'chat';
  protected readonly optionsSchema = DecoderModelOptionsSchema;
  private readonly active = this.modelGauge(
    'tessera_chat_active_generations',
    'Generate calls of a chat model not yet finished (queued or decoding)',
  );
  /** Models whose readiness last said stalled (to log each change once). */
  private readonly stalled = new Set<string>();

  protected async open(entry: ModelToOpen<DecoderModelOptions>): Promise<ChatModel> {
    const { spec, options, modelDir, created } = entry;
    const file = onnxFileFor(spec);
    const decoder = this.closesWithService(
      await DecoderModel.load({
        modelDir,
        // A vision-language model in transformers.js's layout has no onnx/model.onnx: without
        // an explicit `file`, the decoder's defaults find onnx/decoder_model_merged.onnx.
        onnxFile: spec.file !== undefined || existsSync(join(modelDir, file)) ? file : undefined,
        options,
        onWarning: (message) => this.logger.warn(message),
      }),
    );
    await decoder.warmup();
    this.active.set({ model: spec.id }, 0);
    this.logger.log(
      `loaded ${spec.id} (context ${decoder.info.contextLength}, vocabulary ` +
        `${decoder.info.vocabSize}${decoder.info.vision ? ', vision' : ''}) from ${modelDir}`,
    );
    return {
      spec,
      decoder,
      created,
      contextLength: decoder.info.contextLength,
      extraCapabilities: decoder.info.vision ? ['vision'] : [],
    };
  }

  /** Counts a generation of `model` as running; call the result once it has ended. */
  started(model: ChatModel): () => void {
    this.active.inc({ model: model.spec.id });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active.dec({ model: model.spec.id });
    };
  }

  /**
   * Readiness, one part per model: false while one of its workers holds generations and has
   * made no progress for the model's `stall_timeout_ms` (its scheduler is wedged).
   */
  readiness(): Record<string, boolean> {
    const parts: Record<string, boolean> = {};
    for (const { spec, decoder } of this.all()) {
      const progressing = !decoder.stalled();
      if (progressing && this.stalled.delete(spec.id)) {
        this.logger.log(`${spec.id} is making progress again: ready`);
      } else if (!progressing && !this.stalled.has(spec.id)) {
        this.stalled.add(spec.id);
        this.logger.error(
          `${spec.id} holds generations but completed no step for its stall_timeout_ms: not ready`,
        );
      }
      parts[`${spec.id} progressing`] = progressing;
    }
    return parts;
  }
}
