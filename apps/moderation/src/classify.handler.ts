// The Classify call: the request's texts through every classifier of the model (each with its
// micro-batcher), then the category map over their scores. Shapes and types were validated once,
// at the gateway; what the model cannot take (image parts, empty or over-long texts, too many
// inputs) is answered here as a 400 naming the input, before or instead of any model work.
import { Injectable } from '@nestjs/common';
import { status } from '@grpc/grpc-js';
import type { Span } from '@opentelemetry/api';
import {
  GrpcStatusError,
  modelNotServed,
  type ClassifyRequest__Output,
  type ClassifyResponse,
  type ModerationItem__Output,
} from '@tessera/contracts';
import { applyCategoryMap, type ClassifierOutcome } from '@tessera/encoder';
import { GEN_AI, inModelRunSpan } from '@tessera/observability';
import type { WorkBounds } from '@tessera/runtime';
import { ModerationModels, type ModerationModel } from './moderation-models';

const invalidInput = (message: string, param = 'input', code: string | null = null) =>
  new GrpcStatusError(status.INVALID_ARGUMENT, message, { param, code });

/** The call a Classify runs for: its trace span, and what tells that its caller is gone. */
export interface ClassifyContext extends WorkBounds {
  readonly span: Span;
}

@Injectable()
export class ClassifyHandler {
  constructor(private readonly models: ModerationModels) {}

  async classify(
    request: ClassifyRequest__Output,
    context: ClassifyContext,
  ): Promise<ClassifyResponse> {
    const { span } = context;
    const model = this.models.find(request.model);
    if (!model) throw modelNotServed(request.model, 'moderation');
    span.setAttribute(GEN_AI.requestModel, request.model);
    span.setAttribute(GEN_AI.responseModel, model.spec.id);
    const { items } = request;
    if (items.length === 0) throw invalidInput('input must not be empty.');
    if (items.length > model.maxInputs) {
      throw invalidInput(
        `input has ${items.length} items, more than the ${model.maxInputs} the model ` +
          `'${model.spec.id}' classifies per request. Send them in several requests.`,
      );
    }
    const texts = items.map((item, index) => textOf(model, item, index, items.length));
    for (const { model: classifier } of model.classifiers) {
      const early = classifier.refuseEarly(texts);
      if (early) {
        throw tooLong(
          model,
          where(early.index, items.length),
          `is ${early.characters} characters long, more than the model can take`,
        );
      }
    }
    const outcomes = await this.run(model, texts, context);
    // Billed by the first classifier's tokens: the model's own, whatever else scores beside it.
    const inputTokens = outcomes[0].reduce((sum, outcome) => sum + outcome.tokens, 0);
    span.setAttribute(GEN_AI.inputTokens, inputTokens);
    return {
      model: model.spec.id,
      usage: { prompt_tokens: inputTokens, completion_tokens: 0, total_tokens: inputTokens },
      results: texts.map((_, index) => {
        const scores = outcomes.map((perClassifier) =>
          scoresOf(model, perClassifier[index], where(index, items.length)),
        );
        return applyCategoryMap(
          scores,
          model.classifiers.map((classifier) => classifier.rules),
        );
      }),
    };
  }

  /** The classifiers' run, as a span of its own: micro-batch queue plus the worker jobs. */
  private run(
    model: ModerationModel,
    texts: string[],
    context: ClassifyContext,
  ): Promise<ClassifierOutcome[][]> {
    return inModelRunSpan(context.span, 'moderation', model.spec.id, (span) => {
      span.setAttribute('tessera.batch.items', texts.length);
      return this.models.classify(model, texts, context);
    });
  }
}

/** `param` of input `index`: the path the client wrote (`input` for a lone input). */
function where(index: number, items: number): string {
  return items > 1 ? `input[${index}]` : 'input';
}

/**
 * The text of one input: its text parts, joined by newlines. Image parts are refused while no
 * configured model classifies images (only the multimodal form has parts: one input, so the
 * part's index is its place in `input`).
 */
function textOf(
  model: ModerationModel,
  item: ModerationItem__Output,
  index: number,
  items: number,
): string {
  const image = item.parts.findIndex((part) => part.kind === 'image');
  if (image >= 0) {
    const param = items > 1 ? `input[${index}]` : `input[${image}]`;
    throw invalidInput(
      `${param} is an image, but the model '${model.spec.id}' classifies text only ` +
        `(no moderation model that accepts images is configured).`,
      param,
    );
  }
  const text = item.parts.map((part) => part.text ?? '').join('\n');
  if (text.length === 0) {
    const param = where(index, items);
    throw invalidInput(`${param} must not be empty.`, param);
  }
  return text;
}

function scoresOf(model: ModerationModel, outcome: ClassifierOutcome, param: string): Float64Array {
  if ('scores' in outcome) return outcome.scores;
  const { rejection } = outcome;
  switch (rejection.reason) {
    case 'empty':
      throw invalidInput(`${param} must not be empty.`, param);
    case 'too_long':
      throw tooLong(
        model,
        param,
        `is ${rejection.truncated ? 'at least ' : ''}${outcome.tokens} tokens long, more than ` +
          `the model can take`,
      );
    case 'too_many_characters':
      throw tooLong(model, param, `is ${rejection.characters} characters long`);
  }
}

function tooLong(model: ModerationModel, param: string, what: string): GrpcStatusError {
  const { windowing, maxTextTokens } = model.classifiers[0].model;
  return invalidInput(
    `${param} ${what}: the model '${model.spec.id}' scores a long input in windows of ` +
      `${windowing.maxTokens} tokens, at most ${windowing.maxWindows} per input ` +
      `(about ${maxTextTokens} tokens). Split the input into several.`,
    param,
    'context_length_exceeded',
  );
}
