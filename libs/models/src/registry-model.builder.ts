// Builds `registry:<recipe>` models: runs the recipe's fixture tool command into a work
// directory inside the model cache, checks that it wrote what the model needs, and renames it
// into place under the stamp of its inputs, so a build is made once and a half-written one is
// never served (layout and clean-up: registry-cache.layout.ts, fixture-tool.runner.ts).
import { existsSync, readdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { measureDiskNeeds, type DiskNeed, type FreeBytesProbe } from './disk-space.check';
import { runFixtureTool } from './fixture-tool.runner';
import type { PullOptions, PullResult } from './hub-snapshot.puller';
import { resolveLocalModel } from './local-model.resolver';
import type { ModelSpec, RegistrySource } from './model-spec';
import { ModelNotAvailableError } from './model-store.errors';
import { RegistryBuildError } from './registry-build.error';
import { describeDiskUse, describeShortfall } from './registry-build.messages';
import { registryBuildStamp } from './registry-build.stamp';
import { RegistryCacheLayout, type RegistryBuildRecord } from './registry-cache.layout';
import { REGISTRY_RECIPES, type RegistryRecipe } from './registry-recipes';

export interface RegistryBuilderOptions {
  readonly cacheDir: string;
  /** The fixture tool's directory; undefined where this installation has none (an image). */
  readonly toolDir: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly recipes?: readonly RegistryRecipe[];
  readonly freeBytes?: FreeBytesProbe;
}

// What the fixture tool's first run adds besides the models: its venv (torch, transformers,
// onnxruntime, …) and the wheels it is installed from (measured: 7.7 GB and 4.3 GB).
export const VENV_BYTES = 8_000_000_000;
export const WHEELS_BYTES = 4_500_000_000;
/** run.sh's exit status when something it needs is missing (Python 3.11, its venv module). */
export const PREREQUISITE_MISSING = 3;
const STEPS = 3;

export class RegistryModelBuilder {
  private readonly recipes: readonly RegistryRecipe[];

  constructor(private readonly options: RegistryBuilderOptions) {
    this.recipes = options.recipes ?? REGISTRY_RECIPES;
  }

  /** The finished build's directory; throws ModelNotAvailableError, never builds. */
  async resolve(spec: ModelSpec, source: RegistrySource): Promise<string> {
    return (await this.findBuild(spec, source)).directory;
  }

  /** When the build in use was made. */
  async createdAt(spec: ModelSpec, source: RegistrySource): Promise<Date | undefined> {
    try {
      return new Date((await this.findBuild(spec, source)).builtAt);
    } catch (error) {
      if (error instanceof ModelNotAvailableError) return undefined;
      throw error;
    }
  }

  async build(spec: ModelSpec, source: RegistrySource, options: PullOptions): Promise<PullResult> {
    try {
      const found = await this.findBuild(spec, source);
      return result(found.directory, found.stamp, true);
    } catch (error) {
      if (!(error instanceof ModelNotAvailableError)) throw error;
    }
    const { toolDir } = this.options;
    const recipe = this.recipe(spec, source);
    const fail = (reason: RegistryBuildError['reason'], detail: string) =>
      new RegistryBuildError(spec.id, source.raw, reason, detail);
    if (toolDir === undefined) {
      throw fail(
        'tool',
        'registry sources are built by the fixture tool (tools/fixtures of a Tessera checkout), which this ' +
          'installation does not have (container images do not carry it). Use an hf: source (the Hub or a ' +
          'mirror, HF_ENDPOINT), or copy a model cache that has the build (TESSERA_MODEL_CACHE).',
      );
    }
    const stage = (step: number, text: string) =>
      options.onProgress?.({ type: 'stage', step, steps: STEPS, text });
    const stamp = await registryBuildStamp(recipe, toolDir);
    const layout = new RegistryCacheLayout(this.options.cacheDir, recipe.name);
    for (const name of await layout.removeAbandonedWork()) {
      options.onProgress?.({ type: 'output', line: `removed an interrupted build (${name})` });
    }

    const needs = this.diskNeeds(recipe, toolDir);
    const disks = await measureDiskNeeds(needs, this.options.freeBytes);
    const shortfalls = disks.filter((disk) => disk.freeBytes < disk.neededBytes);
    if (shortfalls.length > 0) {
      throw fail(
        'disk',
        `${shortfalls.map(describeShortfall).join('; ')}. Free some space and pull again.`,
      );
    }
    stage(1, `disk space: ${disks.map(describeDiskUse).join('; ')}`);

    const started = Date.now();
    stage(
      2,
      `converting ${recipe.description} with tools/fixtures (run.sh ${recipe.command})` +
        (needs.length > 1 ? ': first the Python venv, then ' : ': ') +
        recipe.duration,
    );
    const work = await layout.createWorkDirectory();
    try {
      const output = path.join(work, 'model');
      const run = await runFixtureTool(toolDir, [recipe.command, output], {
        env: converterEnvironment(this.options.env),
        workDir: work,
        signal: options.signal,
        onLine: (line) => options.onProgress?.({ type: 'output', line }),
      });
      options.signal?.throwIfAborted();
      if (run.code === PREREQUISITE_MISSING) {
        throw fail('prerequisite', `${run.tail.join('\n')}\nThen pull again.`);
      }
      if (run.code !== 0) {
        const how = run.signal === null ? `exit code ${run.code}` : `signal ${run.signal}`;
        throw fail(
          'failed',
          `tools/fixtures/run.sh ${recipe.command} failed (${how}); its last lines:\n` +
            `${run.tail.map((line) => `  ${line}`).join('\n')}\n` +
            'Nothing was kept in the model cache; fix the cause and pull again.',
        );
      }
      try {
        await resolveLocalModel(spec, { kind: 'local', path: output, raw: source.raw });
      } catch (error) {
        if (!(error instanceof ModelNotAvailableError)) throw error;
        throw fail(
          'output',
          `the conversion did not write what the model needs (${error.message})`,
        );
      }
      await layout.writeRecord(output, {
        format: 1,
        source: source.raw,
        recipe: recipe.name,
        stamp,
        command: recipe.command,
        builtAt: new Date().toISOString(),
      });
      const directory = layout.buildDirectory(stamp);
      await renameUnlessPresent(output, directory);
      await layout.removeBuildsOtherThan(directory);
      stage(3, `stored in ${directory} (converted in ${formatDuration(Date.now() - started)})`);
      return result(directory, stamp, false);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  private async findBuild(
    spec: ModelSpec,
    source: RegistrySource,
  ): Promise<{ directory: string; stamp: string; builtAt: string }> {
    const recipe = this.recipe(spec, source);
    const layout = new RegistryCacheLayout(this.options.cacheDir, recipe.name);
    const { toolDir } = this.options;
    const notBuilt = (why: string) =>
      new ModelNotAvailableError(
        spec.id,
        `model ${spec.id} (${source.raw}) ${why}; run "npm run models -- pull --model ${spec.id}" to build it ` +
          `(${recipe.description}; ${recipe.duration}, more the first time, when the Python venv is made), ` +
          `or copy a model cache that has it (TESSERA_MODEL_CACHE)`,
      );
    let build: { directory: string; record: RegistryBuildRecord } | undefined;
    if (toolDir === undefined) {
      // No fixture tool to say which build is current (an image given a copied cache).
      build = (await layout.finishedBuilds())[0];
      if (build === undefined) {
        throw notBuilt(`is not in the model cache (no build in ${layout.folder})`);
      }
    } else {
      const stamp = await registryBuildStamp(recipe, toolDir);
      const directory = layout.buildDirectory(stamp);
      const record = await layout.readRecord(directory);
      if (record?.stamp !== stamp) {
        const older = (await layout.finishedBuilds()).length > 0;
        throw notBuilt(
          older
            ? `has only builds made by another version of the fixture tool in ${layout.folder}`
            : `is not in the model cache (no build in ${layout.folder})`,
        );
      }
      build = { directory, record };
    }
    await resolveLocalModel(spec, { kind: 'local', path: build.directory, raw: source.raw });
    return { directory: build.directory, stamp: build.record.stamp, builtAt: build.record.builtAt };
  }

  private recipe(spec: ModelSpec, source: RegistrySource): RegistryRecipe {
    const recipe = this.recipes.find((known) => known.name === source.recipe);
    if (recipe === undefined) {
      throw new ModelNotAvailableError(
        spec.id,
        `model ${spec.id}: no registry recipe "${source.recipe}"`,
      );
    }
    return recipe;
  }

  /** The converted model, and on the first run the fixture tool's venv and wheels. */
  private diskNeeds(recipe: RegistryRecipe, toolDir: string): DiskNeed[] {
    const needs: DiskNeed[] = [
      { path: this.options.cacheDir, bytes: recipe.outputBytes, what: 'the converted model' },
    ];
    if (existsSync(path.join(toolDir, '.venv', 'bin', 'python'))) return needs;
    needs.push({
      path: toolDir,
      bytes: VENV_BYTES,
      what: 'the Python venv (tools/fixtures/.venv)',
    });
    const wheelhouse = wheelhouseOf(this.options.env);
    const wheels = existsSync(wheelhouse)
      ? readdirSync(wheelhouse).filter((name) => name.endsWith('.whl'))
      : [];
    if (wheels.length === 0) {
      needs.push({ path: wheelhouse, bytes: WHEELS_BYTES, what: `the wheels (${wheelhouse})` });
    }
    return needs;
  }
}

/** run.sh's wheelhouse: TESSERA_WHEELHOUSE, else its default. */
function wheelhouseOf(env: NodeJS.ProcessEnv): string {
  return (
    env.TESSERA_WHEELHOUSE?.trim() ||
    path.join(os.homedir(), '.cache', 'tessera-fixtures', 'wheels')
  );
}

/**
 * The converter's environment: this one (PATH, HOME, TESSERA_FIXTURES_PYTHON, proxies for PyPI),
 * without TESSERA_MODEL_CACHE, which the fixture tool reads as its own export cache
 * (~/.cache/tessera-fixtures/models by default, shared with the extended suite), and with
 * Python's output unbuffered so its progress lines arrive as they are printed.
 */
function converterEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env, PYTHONUNBUFFERED: '1' };
  delete merged.TESSERA_MODEL_CACHE;
  return merged;
}

/** Another process may have finished the same build meanwhile: then its copy is kept. */
async function renameUnlessPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
  }
}

function result(directory: string, stamp: string, reused: boolean): PullResult {
  return {
    directory,
    downloaded: [],
    alreadyCached: [],
    bytesDownloaded: 0,
    built: { stamp: stamp.slice(0, 12), reused },
  };
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
