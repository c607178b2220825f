// Where each capability's models come from when `npm start` runs on the default models file:
// that file's own models when they are cached, else pulled from the Hub when it answers, else
// the starter set (config/models.starter.yaml: real weights from package registries, fixtures
// where no registry has any). A capability is served wholly from one file, so the ids and
// aliases of the two files never meet; a model none of these can provide stops the start.
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { CAPABILITIES, type Capability } from '@tessera/contracts';
import { companionSpecs, modelsFor, type ModelSpec, type ModelsFile } from '@tessera/models';
import type { ModelStore } from '@tessera/models/store';
import { pullModels, type PullCommandIo } from '../models/pull.command';
import { ModelsUnobtainableError, type TriedSource } from './models-unobtainable.error';

/** cached: nothing to do; pulled: from the Hub, this start; starter: from the starter file. */
export type ServedOrigin = 'cached' | 'pulled' | 'starter';

export interface ServedCapability {
  readonly capability: Capability;
  /** The models file whose entries serve this capability. */
  readonly file: ModelsFile;
  readonly models: readonly ModelSpec[];
  readonly origin: ServedOrigin;
  /** Why the default file's own models are not served (origin `starter`). */
  readonly fallbackReason?: string;
}

export interface ServedModelsSources {
  readonly defaults: ModelsFile;
  /** Read only when some capability needs it. */
  readonly starter: () => ModelsFile;
}

export interface ResolveIo extends PullCommandIo {
  readonly log: (line: string) => void;
}

/** Time the Hub gets to answer the one question asked before deciding to pull. */
export const HUB_PROBE_TIMEOUT_MS = 5_000;

/** The models file and origin of every capability the default file serves, in registry order. */
export async function resolveServedModels(
  sources: ServedModelsSources,
  store: ModelStore,
  io: ResolveIo,
  probeTimeoutMs = HUB_PROBE_TIMEOUT_MS,
): Promise<ServedCapability[]> {
  const { defaults } = sources;
  const unavailable = await unavailableModels(defaults, store);
  const served: ServedCapability[] = [];
  const fallbacks: { capability: Capability; reason: string; tried: TriedSource[] }[] = [];
  let hub: Awaited<ReturnType<typeof askHubOnce>> | undefined;

  for (const capability of CAPABILITIES) {
    const models = modelsFor(defaults, capability);
    if (models.length === 0) continue;
    const missing = unavailable.filter((spec) => spec.capability === capability);
    if (missing.length === 0) {
      served.push({ capability, file: defaults, models, origin: 'cached' });
      continue;
    }
    hub ??= await askHubOnce(unavailable, store, io, probeTimeoutMs);
    const tried = missing.map((spec) => ({ model: spec.id, source: spec.source.raw }));
    const localGone = missing.filter((spec) => spec.source.kind === 'local');
    if (localGone.length > 0) {
      const where = localGone.map((spec) => spec.source.raw).join(', ');
      fallbacks.push({
        capability,
        reason: `a local model directory is missing (${where})`,
        tried,
      });
    } else if (!hub.reachable) {
      fallbacks.push({ capability, reason: hub.reason, tried });
    } else if (await pulled(defaults, missing, store, io)) {
      served.push({ capability, file: defaults, models, origin: 'pulled' });
    } else {
      const reason = `pulling from ${store.hubEndpoint} failed (see above)`;
      fallbacks.push({ capability, reason, tried });
    }
  }
  if (fallbacks.length === 0) return served;

  const starter = sources.starter();
  for (const [reason, capabilities] of groupByReason(fallbacks)) {
    io.log(`${capabilities.join(', ')}: not cached and ${reason}; serving the starter models`);
  }
  for (const { capability, reason, tried } of fallbacks) {
    const models = modelsFor(starter, capability);
    if (models.length === 0) {
      throw new ModelsUnobtainableError(capability, tried, reason, {
        problem: `${starter.path} has no model for ${capability}`,
      });
    }
    await obtainStarterModels(starter, models, store, io, { capability, reason, tried });
    served.push({ capability, file: starter, models, origin: 'starter', fallbackReason: reason });
  }
  return served.sort(
    (a, b) => CAPABILITIES.indexOf(a.capability) - CAPABILITIES.indexOf(b.capability),
  );
}

/** The capabilities that fell back, by why (one line each in the log and the banner). */
export function groupByReason(
  fallbacks: readonly { capability: Capability; reason: string }[],
): Map<string, Capability[]> {
  const grouped = new Map<string, Capability[]>();
  for (const { capability, reason } of fallbacks) {
    grouped.set(reason, [...(grouped.get(reason) ?? []), capability]);
  }
  return grouped;
}

/** Entries of `file` that cannot be served from this machine as it is (own source or a companion). */
export async function unavailableModels(file: ModelsFile, store: ModelStore): Promise<ModelSpec[]> {
  const unavailable: ModelSpec[] = [];
  for (const spec of file.models) {
    for (const one of [spec, ...companionSpecs(spec, path.dirname(file.path))]) {
      const availability = await store.availability(one);
      if (availability === 'missing' || availability === 'local-missing') {
        unavailable.push(spec);
        break;
      }
    }
  }
  return unavailable;
}

/** The Hub is asked once per start, about the first missing Hub model, and only when one is missing. */
async function askHubOnce(
  unavailable: readonly ModelSpec[],
  store: ModelStore,
  io: ResolveIo,
  timeoutMs: number,
) {
  const hubSource = unavailable.find((spec) => spec.source.kind === 'hf')?.source;
  if (hubSource?.kind !== 'hf') return { reachable: false as const, reason: 'no Hub model' };
  io.log(
    `not cached: ${unavailable.map((spec) => spec.id).join(', ')}; asking ${store.hubEndpoint}`,
  );
  const answer = await store.probeHub(hubSource, timeoutMs);
  if (answer.reachable) return answer;
  return {
    reachable: false as const,
    reason: `the Hugging Face Hub at ${store.hubEndpoint} is not reachable (${answer.reason})`,
  };
}

async function pulled(
  file: ModelsFile,
  models: readonly ModelSpec[],
  store: ModelStore,
  io: ResolveIo,
): Promise<boolean> {
  io.log(`getting ${models.map((spec) => spec.id).join(', ')} into ${store.cacheDir}`);
  const ids = models.map((spec) => spec.id);
  return (await pullModels(file, ids, store, io)) === 0;
}

async function obtainStarterModels(
  starter: ModelsFile,
  models: readonly ModelSpec[],
  store: ModelStore,
  io: ResolveIo,
  why: { capability: Capability; reason: string; tried: TriedSource[] },
): Promise<void> {
  const ids = new Set(models.map((spec) => spec.id));
  const unavailable = async () =>
    (await unavailableModels(starter, store)).filter((spec) => ids.has(spec.id));
  const missing = await unavailable();
  if (missing.length === 0) return;
  const errors = errorRecorder(io.stderr);
  let failure: string;
  try {
    const pullFailed = !(await pulled(starter, missing, store, { ...io, stderr: errors.stream }));
    // A local directory that is not there passes the pull ("nothing to pull"): check again.
    const left = await unavailable();
    if (!pullFailed && left.length === 0) return;
    failure = errors.lines.length > 0 ? errors.lines.join('; ') : await whyUnavailable(left, store);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  const starterTried = missing.map((spec) => ({ model: spec.id, source: spec.source.raw }));
  throw new ModelsUnobtainableError(why.capability, why.tried, why.reason, {
    problem: failure,
    tried: starterTried,
    file: starter.path,
  });
}

/** The store's own explanation of why each model cannot be resolved. */
async function whyUnavailable(specs: readonly ModelSpec[], store: ModelStore): Promise<string> {
  const reasons = await Promise.all(
    specs.map((spec) =>
      store.resolve(spec).then(
        () => `${spec.id} is available after all`,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
    ),
  );
  return reasons.join('; ');
}

/** Passes the pull's messages on, keeping its `error:` lines for the message that stops the start. */
function errorRecorder(target: NodeJS.WritableStream): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.startsWith('error: ')) lines.push(line.slice('error: '.length));
      }
      target.write(chunk);
      done();
    },
  });
  return { stream, lines };
}
