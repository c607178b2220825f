// The Embed call: model-dependent validation (vocabulary, context length, dimensions), then the
// model's micro-batcher. Shapes and types were validated once, at the gateway.
import { Injectable } from '@nestjs/common';
import { status } from '@grpc/grpc-js';
import { trace, type Span } from '@opentelemetry/api';
import { GrpcStatusError, type EmbedRequest__Output, type EmbedResponse } from '@tessera/contracts';
import { GEN_AI } from '@tessera/observability';
import { truncateAndNormalize } from '@tessera/runtime';
import { EmbeddingModels, type EmbeddingModel } from './embedding-models';

const tracer = trace.getTracer('tessera');

const invalidInput = (message: string, param = 'input', code: string | null = null) =>
  new GrpcStatusError(status.INVALID_ARGUMENT, message, { param, code });

@Injectable()
export class EmbedHandler {
  constructor(private readonly models: EmbeddingModels) {}

  async embed(request: EmbedRequest__Output, span: Span): Promise<EmbedResponse> {
    const model = this.models.find(request.model);
    if (!model) {
      throw new GrpcStatusError(
        status.NOT_FOUND,
        `The model '${request.model}' does not exist or is not served by this embeddings service.`,
        { param: 'model', code: 'model_not_found' },
      );
    }
    const { encoder } = model;
    span.setAttribute(GEN_AI.requestModel, request.model);
    span.setAttribute(GEN_AI.responseModel, model.spec.id);
    if (request.inputs.length === 0) throw invalidInput('input must not be empty.');
    if (request.dimensions > encoder.dimensions) {
      throw invalidInput(
        `dimensions is ${request.dimensions}, but the model '${model.spec.id}' produces ` +
          `${encoder.dimensions}-dimensional embeddings; ask for at most ${encoder.dimensions}.`,
        'dimensions',
      );
    }

    const sequences = await this.toSequences(request, model);
    const vectors = await this.run(model, sequences);
    const dims = request.dimensions || encoder.dimensions;
    const promptTokens = sequences.reduce((sum, sequence) => sum + sequence.length, 0);
    span.setAttribute(GEN_AI.inputTokens, promptTokens);
    span.setAttribute(GEN_AI.embeddingsDimensionCount, dims);
    return {
      model: model.spec.id,
      embeddings: vectors.map((vector) => {
        const values = dims < vector.length ? truncateAndNormalize(vector, dims) : vector;
        // Float32Array memory is little-endian on every platform Node ships for (x64, arm64).
        return {
          data: Buffer.from(values.buffer, values.byteOffset, values.byteLength),
          dimensions: dims,
        };
      }),
      usage: { prompt_tokens: promptTokens, completion_tokens: 0, total_tokens: promptTokens },
    };
  }

  /** The model run, as a span of its own: time in the micro-batch queue plus the ONNX run. */
  private run(model: EmbeddingModel, sequences: number[][]): Promise<Float32Array[]> {
    return tracer.startActiveSpan('onnxruntime.run', async (span) => {
      span.setAttribute(GEN_AI.operationName, 'embeddings');
      span.setAttribute(GEN_AI.responseModel, model.spec.id);
      span.setAttribute('tessera.batch.items', sequences.length);
      try {
        return await model.batcher.submit(sequences);
      } finally {
        span.end();
      }
    });
  }

  /** Tokenises the text inputs (in the workers) and checks every sequence against the model. */
  private async toSequences(
    request: EmbedRequest__Output,
    model: EmbeddingModel,
  ): Promise<number[][]> {
    const { encoder } = model;
    const texts = request.inputs.flatMap((input) =>
      input.kind === 'text' ? [input.text ?? ''] : [],
    );
    const tokenized = texts.length > 0 ? await encoder.tokenize(texts) : [];
    let nextText = 0;
    return request.inputs.map((input, index) => {
      const sequence = input.kind === 'text' ? tokenized[nextText++] : (input.tokens?.ids ?? []);
      const where = request.inputs.length > 1 ? `input[${index}]` : 'input';
      if (sequence.length === 0) throw invalidInput(`${where} must not be empty.`);
      if (input.kind === 'tokens') {
        const bad = sequence.find((id) => id >= encoder.vocabSize);
        if (bad !== undefined) {
          throw invalidInput(
            `${where} contains token id ${bad}, outside the vocabulary of '${model.spec.id}' ` +
              `(ids 0 to ${encoder.vocabSize - 1}).`,
          );
        }
      }
      if (sequence.length > encoder.maxTokens) {
        throw invalidInput(
          `${where} is ${sequence.length} tokens long, but the model '${model.spec.id}' accepts at ` +
            `most ${encoder.maxTokens} tokens per input. Shorten the input; it is not truncated.`,
          'input',
          'context_length_exceeded',
        );
      }
      return sequence;
    });
  }
}
