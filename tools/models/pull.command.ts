import { dirname } from 'node:path';
import { companionSpecs, ModelRegistry, type ModelSpec, type ModelsFile } from '@tessera/models';
import {
  formatByteSize,
  HubOfflineError,
  HubUnreachableError,
  ModelDownloadError,
  ModelNotAvailableError,
  type ModelStore,
  type PullResult,
} from '@tessera/models/store';
import { CliUsageError } from './cli.arguments';
import { createPullProgressReporter, type ProgressStream } from './pull-progress.reporter';

export interface PullCommandIo {
  readonly stdout: ProgressStream;
  readonly stderr: NodeJS.WritableStream;
  readonly signal?: AbortSignal;
}

/** Pulls the named models (all by default); returns the exit code. */
export async function pullModels(
  file: ModelsFile,
  names: readonly string[],
  store: ModelStore,
  io: PullCommandIo,
): Promise<number> {
  let failures = 0;
  for (const model of selectModels(file, names)) {
    const { source } = model;
    if (source.kind === 'local') {
      io.stdout.write(`${model.id}: local source ${source.path}, nothing to pull\n`);
      continue;
    }
    io.stdout.write(
      `${model.id}: ${source.kind === 'registry' ? 'building' : 'pulling'} ${source.raw}\n`,
    );
    const reporter = createPullProgressReporter(io.stdout);
    try {
      const result = await store.pull(model, {
        onProgress: reporter.onProgress,
        signal: io.signal,
      });
      reporter.stop();
      io.stdout.write(`${model.id}: ${describePull(result)} in ${result.directory}\n`);
    } catch (error) {
      reporter.stop();
      if (!(error instanceof ModelDownloadError || error instanceof ModelNotAvailableError))
        throw error;
      io.stderr.write(`error: ${error.message}\n`);
      failures++;
      // Every other model would fail the same way.
      if (error instanceof HubUnreachableError || error instanceof HubOfflineError) break;
    }
  }
  return failures > 0 ? 1 : 0;
}

function describePull(result: PullResult): string {
  if (result.built !== undefined) {
    return `${result.built.reused ? 'already built' : 'built'} (stamp ${result.built.stamp})`;
  }
  const kept = result.alreadyCached.length;
  if (result.downloaded.length === 0) return `already cached (${kept} files)`;
  const downloaded = `downloaded ${result.downloaded.length} files (${formatByteSize(result.bytesDownloaded)})`;
  return kept > 0 ? `${downloaded}, ${kept} already cached` : downloaded;
}

/** The named models (all by default), each followed by its companions (see companionSpecs). */
function selectModels(file: ModelsFile, names: readonly string[]): ModelSpec[] {
  return selectEntries(file, names).flatMap((spec) => [
    spec,
    ...companionSpecs(spec, dirname(file.path)),
  ]);
}

function selectEntries(file: ModelsFile, names: readonly string[]): ModelSpec[] {
  if (names.length === 0) return [...file.models];
  const registry = ModelRegistry.fromFile(file);
  const selected = names.map((name) => {
    const model = registry.find(name);
    if (model === undefined) {
      throw new CliUsageError(
        `no model "${name}" in ${file.path} (its models: ${file.models.map((known) => known.id).join(', ')})`,
      );
    }
    return model;
  });
  return [...new Set(selected)];
}
