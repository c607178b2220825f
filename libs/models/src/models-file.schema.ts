// The shape of the models file as a user writes it (snake_case keys, as in the YAML). Rules that
// span entries (unique names, `file` vs `dtype`) live in models-file.rules.ts.
import { z } from 'zod';
import { CAPABILITIES } from '@tessera/contracts';
import { isContainedPath } from './contained-path.guard';
import { sourceProblem } from './model-source.parser';
import { DTYPES } from './onnx-file.naming';

// Names travel in request bodies and in `GET /v1/models/{id}`; names clients already send
// contain '.', ':' and '/' (gpt-4o-mini, llama3.1:8b, Qwen/Qwen2.5-0.5B-Instruct).
const modelName = z
  .string()
  .max(128, { error: 'must be at most 128 characters' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, {
    error: 'must start with a letter or digit and use only letters, digits and . _ : / -',
  });

const source = z
  .string()
  .min(1, { error: 'must not be empty' })
  .superRefine((value, ctx) => {
    const problem = sourceProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

// The file is looked up inside the model directory and the cache, so it must stay inside it.
const onnxFile = z
  .string()
  .refine(isContainedPath, {
    error: 'must be a relative path inside the model directory, such as onnx/model.onnx',
  })
  .refine((file) => file.endsWith('.onnx'), { error: 'must name an .onnx file' });

export const modelEntrySchema = z.strictObject({
  id: modelName,
  capability: z.enum(CAPABILITIES),
  source,
  file: onnxFile.optional(),
  dtype: z.enum(DTYPES).optional(),
  aliases: z.array(modelName).default([]),
  owned_by: z.string().min(1, { error: 'must not be empty' }).default('tessera'),
  // GET /v1/models' `created`: Unix seconds, or a date (2024-05-01) or ISO 8601 date-time.
  created: z
    .union([z.number().int().nonnegative(), z.iso.date(), z.iso.datetime({ offset: true })], {
      error: 'must be Unix seconds or a date such as 2024-05-01',
    })
    .optional(),
  options: z.record(z.string(), z.unknown()).default({}),
});

export const modelsFileSchema = z.strictObject({
  models: z.array(modelEntrySchema).min(1, { error: 'must list at least one model' }),
});

export type ModelEntry = z.infer<typeof modelEntrySchema>;
