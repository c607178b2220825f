import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { LocalSource, ModelSpec } from './model-spec';
import { describeOnnxChoice, onnxGraphsFor } from './model-files.selection';
import { ModelNotAvailableError } from './model-store.errors';

/** Checks that a local model directory exists and holds the ONNX graphs the spec chooses. */
export async function resolveLocalModel(spec: ModelSpec, source: LocalSource): Promise<string> {
  const unavailable = (why: string) =>
    new ModelNotAvailableError(spec.id, `model ${spec.id}: ${why}`);
  const directory = await stat(source.path).catch(() => undefined);
  if (directory === undefined) {
    // `org/name` without the prefix is the likeliest typo for a Hub model.
    const hint = /^[\w.-]+\/[\w.-]+$/.test(source.raw)
      ? ` (for a Hub model write "source: hf:${source.raw}")`
      : '';
    throw unavailable(`the local model directory ${source.path} does not exist${hint}`);
  }
  if (!directory.isDirectory())
    throw unavailable(`the local source ${source.path} is not a directory`);

  const available =
    spec.file !== undefined
      ? await existing(source.path, [spec.file])
      : await onnxFilesIn(source.path);
  if (onnxGraphsFor(spec, available).length === 0) {
    const found = available.length > 0 ? `; it has ${available.join(', ')}` : '';
    throw unavailable(
      `the local model directory ${source.path} has no ${describeOnnxChoice(spec)}${found}`,
    );
  }
  return source.path;
}

async function existing(directory: string, files: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    files.map(async (file) =>
      (await stat(path.join(directory, file)).catch(() => undefined))?.isFile() ? file : undefined,
    ),
  );
  return found.filter((file): file is string => file !== undefined);
}

async function onnxFilesIn(directory: string): Promise<string[]> {
  const names = await readdir(path.join(directory, 'onnx')).catch(() => []);
  return names.filter((name) => name.endsWith('.onnx')).map((name) => `onnx/${name}`);
}
