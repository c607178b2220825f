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
  type GenerationEvent,
} from '@tessera/decoder';
import { GEN_AI, METRICS_REGISTRY } from '@tessera/observability';
import type { Registry } from 'prom-client';
import type { GrpcCallContext } from '@tessera/service';
import { ChatTemplateError } from '@tessera/text';
import { chatGenerationOf } from './chat-generation.mapper';
import { ChatModels } from './chat-models';
import { GenerationTrace } from './generation.trace';
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
    let trace: GenerationTrace | undefined;
    let failure: unknown;
    try {
      const events = modelCall(() =>
        model.decoder.generate(generation, { signal: ctx.signal, deadline: ctx.deadline }),
      );
      trace = new GenerationTrace(ctx.span, model.spec.id);
      for await (const event of modelIteration(events, generation)) {
        if (event.type === 'grammar') {
          // Counted when told, so a generation cancelled after its compile counts it too.
          this.grammar.record(model.spec.id, event);
          continue;
        }
        trace.observe(event);
        yield frameOf(event);
      }
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // The model's stream has ended here (completed, failed, or left when this call was), so
      // the engine has let go of the generation's sequences: it no longer counts as running.
      trace?.end(failure);
      done();
    }
  }
}

/**
 * A frame of the Generate stream. The prompt's token count rides on the first delta (what a
 * stream the client leaves is billed for), the request's usage on the last finish.
 */
function frameOf(event: Exclude<GenerationEvent, { type: 'grammar' }>): GenerateResponse {
  if (event.type === 'finish') {
    const { usage } = event;
    return {
      choice_index: event.choice,
      finish: {
        finish_reason: event.reason,
        ...(usage && {
          usage: {
            prompt_tokens: usage.promptTokens,
            completion_tokens: usage.completionTokens,
            total_tokens: usage.promptTokens + usage.completionTokens,
          },
        }),
      },
    };
  }
  const prompt = event.promptTokens !== undefined && { prompt_tokens: event.promptTokens };
  if (event.type === 'tool_call') {
    const { index, id, name } = event;
    const first = id !== undefined ? { id, type: 'function', name: name ?? '' } : {};
    return {
      choice_index: event.choice,
      delta: {
        tool_calls: [{ index, ...first, arguments: event.arguments }],
        tokens: event.tokens ?? 0,
        ...prompt,
      },
    };
  }
  return {
    choice_index: event.choice,
    delta: {
      content: event.text,
      tokens: event.tokens ?? 0,
      ...prompt,
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
