// The models a capability service serves, as the models file lists them: each entry of the
// capability with its options parsed by the capability's schema (a bad value stops the service
// with a message naming the model), its directory resolved locally (never downloaded) and its
// stable `created` time, then opened by the capability; the lookup by id or alias; and, after the
// drain, the close of everything the capability opened. A capability's `<Capability>Models`
// extends it with only what differs: how an entry is opened, its metrics (fields registered on
// `metrics`), and the calls its handlers make. Which execution providers each model's sessions
// run on is gathered here for every capability (model-execution-providers.ts).
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import type { Capability } from '@tessera/contracts';
import { dirname, resolve } from 'node:path';
import { ModelRegistry, companionSpecs, loadModelsFile, type ModelSpec } from '@tessera/models';
import { ModelStore, modelCreatedAt } from '@tessera/models/store';
import { METRICS_REGISTRY } from '@tessera/observability';
import { parseModelOptions, reportingProviders } from '@tessera/runtime';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { z } from 'zod';
import { SERVICE_CONFIG, type ServedModel } from './capability-service';
import { ModelExecutionProviders } from './model-execution-providers';

/** What the capability opens a model from. */
export interface ModelToOpen<O> {
  readonly spec: ModelSpec;
  /** The entry's `options`, validated and with the schema's defaults. */
  readonly options: O;
  readonly modelDir: string;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`), not the load time. */
  readonly created: number;
}

/** A companion model of an entry, resolved like the entry's own source. */
export interface ResolvedCompanion {
  readonly spec: ModelSpec;
  readonly modelDir: string;
}

/** What a model holds that close() must free: a runtime's worker pool, a micro-batcher. */
export interface Closable {
  close(): Promise<void>;
}

@Injectable()
export abstract class ServedModels<M extends ServedModel, S extends z.ZodType = z.ZodType> {
  /** Which entries of the models file are this service's. */
  protected abstract readonly capability: Capability;
  /** The schema of an entry's `options`. */
  protected abstract readonly optionsSchema: S;
  /** Named after the capability's class (`ChatModels`, …). */
  protected readonly logger = new Logger(this.constructor.name);
  private registry = new ModelRegistry([]);
  private readonly byId = new Map<string, M>();
  /** In the order they were opened; a model that failed half-way left its part here too. */
  private readonly opened: Closable[] = [];
  private readonly executionProviders: ModelExecutionProviders;

  constructor(
    @Inject(SERVICE_CONFIG) protected readonly config: ServiceConfig,
    /** Where the capability registers its metrics (labelled by model). */
    @Inject(METRICS_REGISTRY) protected readonly metrics: Registry,
    /** The service's (shared with /readyz); a models class made without Nest keeps its own. */
    @Optional() executionProviders?: ModelExecutionProviders,
  ) {
    this.executionProviders = executionProviders ?? new ModelExecutionProviders(metrics);
  }

  /**
   * Loads one entry into workers and warms it; whatever it starts that must be freed it hands
   * to `closesWithService` as soon as it exists.
   */
  protected abstract open(model: ModelToOpen<z.infer<S>>): Promise<M>;

  /** Resolves every model locally (never downloads) and opens it, one after the other. */
  async load(): Promise<void> {
    const file = loadModelsFile(this.config.modelsFile);
    const store = new ModelStore();
    this.registry = ModelRegistry.fromFile(file, this.capability);
    for (const spec of this.registry.list()) {
      const options = parseModelOptions(
        this.optionsSchema,
        spec.options,
        `${this.capability} model '${spec.id}' in ${file.path}`,
      );
      const modelDir = await store.resolve(spec);
      const created = await modelCreatedAt(spec, store, modelDir);
      // The worker pools the capability's engines start report their sessions to the model.
      const providers = this.executionProviders.track(spec.id);
      const model = await reportingProviders(providers, () =>
        this.open({ spec, options, modelDir, created }),
      );
      this.byId.set(spec.id, model);
      const runsOn = providers.runsOn();
      if (runsOn.length > 0) {
        this.logger.log(`${spec.id} runs on ${runsOn.join(' and ')}: ${providers.describe()}`);
      }
    }
  }

  /** The loaded model a request names, by id or alias. */
  find(name: string): M | undefined {
    const spec = this.registry.find(name);
    return spec && this.byId.get(spec.id);
  }

  all(): M[] {
    return [...this.byId.values()];
  }

  /**
   * Frees what the models opened, the last opened first (a batcher before the runtime it feeds).
   * Called after the drain: no call is in flight any more.
   */
  async close(): Promise<void> {
    for (let resource = this.opened.pop(); resource; resource = this.opened.pop()) {
      await resource.close();
    }
  }

  /**
   * The entry's companion models (moderation's further classifiers, speech's other voice files:
   * model-companions.ts), the same specs `npm run models -- pull` fetches, in the same order,
   * resolved locally like the entry's own source.
   */
  protected resolveCompanions(spec: ModelSpec): Promise<ResolvedCompanion[]> {
    const store = new ModelStore();
    const companions = companionSpecs(spec, dirname(resolve(this.config.modelsFile)));
    return Promise.all(
      companions.map(async (companion) => ({
        spec: companion,
        modelDir: await store.resolve(companion),
      })),
    );
  }

  /** A counter of the capability's, one series per model (label `model`: its id). */
  protected modelCounter(name: string, help: string): Counter<'model'> {
    return new Counter({ name, help, labelNames: ['model'], registers: [this.metrics] });
  }

  /** A gauge of the capability's, one series per model (label `model`: its id). */
  protected modelGauge(name: string, help: string): Gauge<'model'> {
    return new Gauge({ name, help, labelNames: ['model'], registers: [this.metrics] });
  }

  /** Has close() free `resource`; returns it. */
  protected closesWithService<T extends Closable>(resource: T): T {
    this.opened.push(resource);
    return resource;
  }
}
