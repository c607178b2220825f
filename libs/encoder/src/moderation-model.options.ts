// The per-model `options` a moderation entry of the models file may set: the encoder's shared
// options (runtime, micro-batching), the request and windowing bounds, and the category map —
// for the entry's own classifier (`categories`) and for any further classifiers behind the same
// public id (`classifiers`), whose categories merge into one result.
import {
  DEFAULT_MODERATION_MAX_INPUTS,
  MODERATION_CATEGORIES,
  MODERATION_MAX_INPUTS_LIMIT,
} from '@tessera/contracts';
import { z } from 'zod';
import { EncoderBatchingOptionsSchema } from './encoder-batching.options';

/** How one OpenAI category is scored from a classifier's labels. */
export const CategoryRuleSchema = z.strictObject({
  /** The classifier's labels (config.json id2label) that score the category. */
  labels: z.array(z.string().min(1)).min(1),
  /**
   * How the labels' scores combine: `max` (any of them: the default) or `min` (all of them, e.g.
   * hate/threatening as identity_hate and threat).
   */
  combine: z.enum(['max', 'min']).default('max'),
  /** Flagged when the score is at least this. */
  threshold: z.number().min(0).max(1).default(0.5),
});

/** OpenAI category → rule; a category no classifier maps is uncovered (0, never flagged). */
export const CategoryMapSchema = z.partialRecord(z.enum(MODERATION_CATEGORIES), CategoryRuleSchema);

const ActivationSchema = z.enum(['sigmoid', 'softmax']);

/** A further classifier behind the same public model id. */
export const ExtraClassifierSchema = z.strictObject({
  /** As a models-file `source`: hf:<org>/<name>[@revision] or a directory (relative to the file). */
  source: z.string().min(1),
  /** The ONNX file inside its directory (default onnx/model.onnx). */
  file: z
    .string()
    .regex(/\.onnx$/, { error: 'must name an .onnx file' })
    .optional(),
  /** Instead of what config.json's problem_type implies (see docs/moderation.md). */
  activation: ActivationSchema.optional(),
  categories: CategoryMapSchema,
});

export const ModerationModelOptionsSchema = EncoderBatchingOptionsSchema.extend({
  /** Most inputs (array items) one request may classify; the gateway refuses more too. */
  max_inputs: z
    .number()
    .int()
    .min(1)
    .max(MODERATION_MAX_INPUTS_LIMIT)
    .default(DEFAULT_MODERATION_MAX_INPUTS),
  /** Tokens each window of a long text shares with the next. */
  window_overlap_tokens: z.number().int().min(0).default(64),
  /** Most windows one input is split into; a longer input is refused (400), never cut. */
  max_windows_per_input: z.number().int().min(1).max(256).default(16),
  /** The entry's own classifier: activation override and category map. */
  activation: ActivationSchema.optional(),
  categories: CategoryMapSchema,
  classifiers: z.array(ExtraClassifierSchema).default([]),
}).strict();

export type ModerationModelOptions = z.infer<typeof ModerationModelOptionsSchema>;
export type CategoryMap = z.infer<typeof CategoryMapSchema>;
