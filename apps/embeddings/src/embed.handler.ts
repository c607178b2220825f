// The Embed call: the model's micro-batcher, then the model's verdict on each input (vocabulary,
// context length) as OpenAI errors. Shapes and types were validated once, at the gateway. What
// cannot fit is refused before it is queued, and work whose caller is gone is not done.
import { Injectable } from '@nestjs/common';
import { status } from '@grpc/grpc-js';
import type { Span } from '@opentelemetry/api';
import {
  GrpcStatusError,
  modelNotServed,
  type EmbedRequest__Output,
  type EmbedResponse,
} from '@tessera/contracts';
import { GEN_AI, inModelRunSpan } from '@tessera/observability';
import {
  truncateAndNormalize,
  type EncoderInput,
  type EncoderOutcome,
  type EncoderRejection,
} from '@tessera/encoder';
import type { WorkBounds } from '@tessera/runtime';
import { EmbeddingModels, type EmbeddingModel } from './embedding-models';

const invalidInput = (message: string, param = 'input', code: string | null = null) =>
  new GrpcStatusError(status.INVALID_ARGUMENT, message, { param, code });

/** The call an Embed runs for: its trace span, and what tells that its caller is gone. */
export interface EmbedContext extends WorkBounds {
  readonly span: Span;
}

@Injectable()
export class EmbedHandler {
  constructor(private readonly models: EmbeddingModels) {}

  async embed(request: EmbedRequest__Output, context: EmbedContext): Promise<EmbedResponse> {
    const { span } = context;
    const model = this.models.find(request.model);
    if (!model) throw modelNotServed(request.model, 'embeddings');
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

    const inputs = request.inputs.map((input) =>
      input.kind === 'text' ? (input.text ?? '') : (input.tokens?.ids ?? []),
    );
    const early = encoder.refuseEarly(inputs);
    if (early) {
      throw this.rejection(model, early.rejection, early.tokens, early.index, inputs.length);
    }
    const outcomes = await this.run(model, inputs, context);
    const vectors = outcomes.flatMap((outcome) => ('vector' in outcome ? [outcome.vector] : []));
    if (vectors.length < outcomes.length) throw this.rejected(model, outcomes);
    const dims = request.dimensions || encoder.dimensions;
    const promptTokens = outcomes.reduce((sum, outcome) => sum + outcome.tokens, 0);
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

  /**
   * The model run (tokenization included), as a span of its own: time in the micro-batch queue
   * plus the worker job.
   */
  private run(
    model: EmbeddingModel,
    inputs: EncoderInput[],
    context: EmbedContext,
  ): Promise<EncoderOutcome[]> {
    return inModelRunSpan(context.span, 'embeddings', model.spec.id, (span) => {
      span.setAttribute('tessera.batch.items', inputs.length);
      // The runtime's refusals (queue full, cancelled, deadline, closed) reach the caller as
      // their status through the service layer's one table (grpcStatusErrorOf).
      return this.models.embed(model, inputs, context);
    });
  }

  /**
   * The 400 for a request the model did not take, naming the input that was rejected (its
   * siblings come back as `request_rejected`).
   */
  private rejected(model: EmbeddingModel, outcomes: EncoderOutcome[]): GrpcStatusError {
    const index = outcomes.findIndex(
      (outcome) => 'rejection' in outcome && outcome.rejection.reason !== 'request_rejected',
    );
    const outcome = outcomes[index];
    if (!outcome || !('rejection' in outcome)) {
      return new GrpcStatusError(status.INTERNAL, 'the model skipped an input without a reason');
    }
    return this.rejection(model, outcome.rejection, outcome.tokens, index, outcomes.length);
  }

  private rejection(
    model: EmbeddingModel,
    rejection: EncoderRejection,
    tokens: number,
    index: number,
    inputs: number,
  ): GrpcStatusError {
    const { encoder, spec } = model;
    // `param` is the full path of the input at fault, as the gateway's own 400s name it.
    const where = inputs > 1 ? `input[${index}]` : 'input';
    const tooLong = (message: string) => invalidInput(message, where, 'context_length_exceeded');
    switch (rejection.reason) {
      case 'empty':
        return invalidInput(`${where} must not be empty.`, where);
      case 'out_of_vocabulary':
        return invalidInput(
          `${where} contains token id ${rejection.tokenId}, outside the vocabulary of ` +
            `'${spec.id}' (ids 0 to ${encoder.vocabSize - 1}).`,
          where,
        );
      case 'too_long':
        return tooLong(
          `${where} is ${rejection.truncated ? 'at least ' : ''}${tokens} tokens long, but the ` +
            `model '${spec.id}' accepts at most ${encoder.maxTokens} tokens per input. ` +
            `Shorten the input; it is not truncated.`,
        );
      case 'too_many_characters':
        return tooLong(
          `${where} is ${rejection.characters} characters long, more than the model ` +
            `'${spec.id}' can take: it accepts at most ${encoder.maxTokens} tokens per input, ` +
            `and no input over ${encoder.maxInputChars} characters fits. Shorten the input; ` +
            `it is not truncated.`,
        );
      case 'request_too_long':
        return invalidInput(
          `The inputs up to ${where} add up to ${rejection.requestTokens} tokens, more than ` +
            `the ${encoder.maxRequestTokens} tokens per request that '${spec.id}' accepts. ` +
            `Send the inputs in several requests.`,
          'input',
          'max_tokens_per_request',
        );
      case 'request_rejected':
        return new GrpcStatusError(status.INTERNAL, 'the model skipped an input without a reason');
    }
  }
}
