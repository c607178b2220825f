// A service's ModelInfo as the OpenAI model object, plus the Tessera `capabilities` it serves
// and the `aliases` it answers to; a chat model also states its `context_length`, a moderation
// model the OpenAI categories it does not cover (`uncovered_categories`: scored 0, never flagged),
// a speech model the `voices` it accepts (OpenAI has no endpoint that lists them).
import type { ModelInfo } from '@tessera/contracts';

export interface OpenAIModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  capabilities: string[];
  aliases: string[];
  /** Chat models only: positions the model attends to (prompt + output). */
  context_length?: number;
  /** Moderation models only: the categories none of its classifiers scores. */
  uncovered_categories?: string[];
  /** Speech models only: the voice names `POST /v1/audio/speech` accepts. */
  voices?: string[];
}

/** `id` is the name the client used (an alias stays the alias), as OpenAI echoes it. */
export function toOpenAIModel(model: ModelInfo, id = model.id ?? ''): OpenAIModel {
  return {
    id,
    object: 'model',
    created: Number(model.created ?? 0),
    owned_by: model.owned_by || 'tessera',
    capabilities: model.capabilities ?? [],
    aliases: model.aliases ?? [],
    ...(model.context_length ? { context_length: model.context_length } : {}),
    ...(model.capabilities?.includes('moderation')
      ? { uncovered_categories: model.uncovered_categories ?? [] }
      : {}),
    ...(model.capabilities?.includes('speech') ? { voices: model.voices ?? [] } : {}),
  };
}
