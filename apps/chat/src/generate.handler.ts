// The Generate call: the request as a ChatGeneration, the model's generation stream as frames
// tagged with their choice, and the model's refusals (prompt past the context, a logit_bias id
// outside the vocabulary, a conversation the chat template refuses) as OpenAI 400s. The queue's
// refusal (429) and the caller going away reach the caller through the service layer's one table
// (grpcStatusErrorOf): the model stops the sequence when `signal` aborts, which frees its slot
// before the next step.
import { Inject, Injectable } from '@nestjs/common';
import { status } from '@grpc/grpc-js';
import {
  GrpcStatusError,
  modelNotServed,
  type GenerateRequest__Output,
  type GenerateResponse,
} from '@tessera/contracts';
import {
  ContextLengthExceededError,
  GrammarCompileError,
  ImageDecodeError,
  ImagePlaceholderError,
  ImageTooLargeError,
  LogitBiasTokenError,
  toolsActive,
  type ChatGeneration,
  type DecoderModel,
  type GenerationEvent,
} from '@tessera/decoder';
import {
  GEN_AI,
  METRICS_REGISTRY,
  endModelRunSpan,
  startModelRunSpan,
} from '@tessera/observability';
import type { Registry } from 'prom-client';
import type { GrpcCallContext } from '@tessera/service';
import { ChatTemplateError } from '@tessera/text';
import { chatGenerationOf } from './chat-generation.mapper';
import { ChatModels } from './chat-models';
import { GrammarMetrics } from './grammar.metrics';

@Injectable()
export class GenerateHandler {
  private readonly grammar: GrammarMetrics;

  constructor(
    private readonly models: ChatModels,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.grammar = new GrammarMetrics(registry);
  }

  async *generate(
    request: GenerateRequest__Output,
    ctx: GrpcCallContext,
  ): AsyncIterable<GenerateResponse> {
    const model = this.models.find(request.model);
    if (!model) throw modelNotServed(request.model, 'chat');
    ctx.span.setAttribute(GEN_AI.requestModel, request.model);
    ctx.span.setAttribute(GEN_AI.responseModel, model.spec.id);
    const generation = chatGenerationOf(request, {
      model: model.spec.id,
      maxN: model.decoder.info.maxN,
      vision: model.decoder.info.vision,
    });
    const done = this.models.started(model);
    let stream: ReturnType<DecoderModel['generate']> | undefined;
    try {
      stream = modelCall(() =>
        model.decoder.generate(generation, { signal: ctx.signal, deadline: ctx.deadline }),
      );
      traceModelRun(ctx, model.spec.id, stream);
      let finishes = 0;
      let last: GenerateResponse | null = null;
      let first = true;
      for await (const event of modelIteration(stream, generation)) {
        const frame = frameOf(event);
        if (first && frame.delta) {
          // Settled before the first event: the prompt was tokenized to start the generation.
          frame.delta.prompt_tokens = await stream.promptTokens;
          first = false;
        }
        if (event.type === 'finish' && ++finishes === generation.n) {
          // The last finish carries the usage of the whole request: held until it settles.
          last = frame;
          continue;
        }
        yield frame;
      }
      if (last) {
        const usage = await stream.usage;
        ctx.span.setAttribute(GEN_AI.inputTokens, usage.promptTokens);
        ctx.span.setAttribute(GEN_AI.outputTokens, usage.completionTokens);
        yield {
          ...last,
          finish: {
            ...last.finish,
            usage: {
              prompt_tokens: usage.promptTokens,
              completion_tokens: usage.completionTokens,
              total_tokens: usage.promptTokens + usage.completionTokens,
            },
          },
        };
      }
    } finally {
      // The generation counts as running until the engine has let go of its sequences (its
      // usage settles then, also when it was cancelled), not merely until this call ended.
      if (stream) {
        void stream.usage.then((usage) => {
          this.grammar.record(model.spec.id, usage);
          done();
        }, done);
      } else done();
    }
  }
}

/**
 * The generation's model-run span: from the engine taking the request until it lets go of its
 * sequences (when its usage settles, also after a cancellation), with the token counts.
 */
function traceModelRun(
  ctx: GrpcCallContext,
  modelId: string,
  stream: ReturnType<DecoderModel['generate']>,
): void {
  const span = startModelRunSpan(ctx.span, 'chat', modelId);
  stream.usage.then(
    (usage) => {
      span.setAttribute(GEN_AI.inputTokens, usage.promptTokens);
      span.setAttribute(GEN_AI.outputTokens, usage.completionTokens);
      endModelRunSpan(span);
    },
    (error: unknown) => endModelRunSpan(span, error ?? 'failed'),
  );
}

function frameOf(event: GenerationEvent): GenerateResponse {
  if (event.type === 'finish') {
    return { choice_index: event.choice, finish: { finish_reason: event.reason } };
  }
  if (event.type === 'tool_call') {
    const { index, id, name } = event;
    const first = id !== undefined ? { id, type: 'function', name: name ?? '' } : {};
    return {
      choice_index: event.choice,
      delta: {
        tool_calls: [{ index, ...first, arguments: event.arguments }],
        tokens: event.tokens ?? 0,
      },
    };
  }
  return {
    choice_index: event.choice,
    delta: {
      content: event.text,
      tokens: event.tokens ?? 0,
      logprobs: (event.logprobs ?? []).map((logprob) => ({
        token: logprob.token,
        logprob: logprob.logprob,
        bytes: Buffer.from(logprob.bytes),
        top_logprobs: logprob.topLogprobs.map((top) => ({
          token: top.token,
          logprob: top.logprob,
          bytes: Buffer.from(top.bytes),
        })),
      })),
    },
  };
}

/** Runs `call`, turning the model's refusals of the request into the caller's 400s. */
function modelCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw refusalOf(error);
  }
}

async function* modelIteration<T>(
  events: AsyncIterable<T>,
  generation: ChatGeneration,
): AsyncIterable<T> {
  try {
    yield* events;
  } catch (error) {
    throw refusalOf(error, generation);
  }
}

function refusalOf(error: unknown, generation?: ChatGeneration): unknown {
  if (error instanceof ContextLengthExceededError) {
    return new GrpcStatusError(status.INVALID_ARGUMENT, error.message, {
      param: 'messages',
      code: 'context_length_exceeded',
    });
  }
  if (error instanceof ChatTemplateError) {
    return new GrpcStatusError(status.INVALID_ARGUMENT, error.message, {
      param: 'messages',
      code: null,
    });
  }
  if (GrammarCompileError.is(error) && generation) {
    // Raised in the worker (it compiles the schema against the vocabulary): matched by name;
    // the constraint is the tools' when they are in play, else the response_format's.
    return new GrpcStatusError(status.INVALID_ARGUMENT, error.message, {
      param: toolsActive(generation) ? 'tools' : 'response_format',
      code: null,
    });
  }
  if (error instanceof ImageDecodeError) {
    return new GrpcStatusError(status.INVALID_ARGUMENT, error.message, {
      param: error.param,
      code: 'invalid_image',
    });
  }
  if (error instanceof ImageTooLargeError) {
    return new GrpcStatusError(status.INVALID_ARGUMENT, error.message, {
      param: error.param,
      code: 'invalid_image',
    });
  }
  if (error instanceof ImagePlaceholderError) {
    return new GrpcStatusError(status.INVALID_ARGUMENT, error.message, {
      param: 'messages',
      code: null,
    });
  }
  if (error instanceof LogitBiasTokenError) {
    return new GrpcStatusError(status.INVALID_ARGUMENT, error.message, {
      param: 'logit_bias',
      code: null,
    });
  }
  return error;
}
