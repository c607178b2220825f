// The shared service host with a test-only capability (moderation's contract, a Classify that
// waits until the test lets it answer): real gRPC on port 0, real grpc.health.v1, real HTTP probes.
import * as grpc from '@grpc/grpc-js';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ServiceConfig } from '@tessera/config';
import { createHealthClient, loadService, type ListModelsResponse } from '@tessera/contracts';
import { parseModelsFile } from '@tessera/models';
import type { CapabilityService, ServedModel } from './capability-service';
import { CapabilityServiceHost } from './capability-service.host';
import { capabilityServiceModule } from './capability-service.module';
import { startCapabilityService } from './capability-service.bootstrap';

/** A promise the test settles when it wants to. */
function gate<T = void>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const [SPEC] = parseModelsFile(
  'models: [{id: guard, capability: moderation, source: /opt/guard, aliases: [omni-moderation-latest]}]',
  '/srv/models.yaml',
).models;

/** What each test controls about the capability, and what it saw. */
class Controls {
  loaded = gate();
  answer = gate();
  callStarted = gate();
  engineUp = true;
  events: string[] = [];
  loadFailure: Error | null = null;
}

@Injectable()
class TestModeration implements CapabilityService {
  readonly handlers: grpc.UntypedServiceImplementation;

  constructor(private readonly controls: Controls) {
    this.handlers = {
      Classify: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
        controls.callStarted.open();
        void controls.answer.promise.then(() => {
          controls.events.push('call answered');
          callback(null, { model: 'guard', results: [] });
        });
      },
    };
  }

  async load(): Promise<void> {
    await this.controls.loaded.promise;
    if (this.controls.loadFailure) throw this.controls.loadFailure;
  }

  models(): readonly ServedModel[] {
    return [{ spec: SPEC!, created: 1_700_000_000, uncoveredCategories: ['illicit'] }];
  }

  readiness(): Record<string, boolean> {
    return { engine: this.controls.engineUp };
  }

  async close(): Promise<void> {
    this.controls.events.push('models closed');
  }
}

@Module({})
class TestModerationModule {
  static forRoot(config: ServiceConfig, controls: Controls): DynamicModule {
    return capabilityServiceModule(TestModerationModule, {
      capability: 'moderation',
      config,
      service: TestModeration,
      providers: [{ provide: Controls, useValue: controls }],
    });
  }
}

const CONFIG: ServiceConfig = { host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile: '' };

interface Service {
  app: NestFastifyApplication;
  grpcPort: number;
  httpUrl: string;
}

/** Listens without waiting for the models, as a process does in its first seconds. */
async function listen(controls: Controls, config: ServiceConfig = CONFIG): Promise<Service> {
  const app = await NestFactory.create<NestFastifyApplication>(
    TestModerationModule.forRoot(config, controls),
    new FastifyAdapter(),
    { logger: false },
  );
  await app.listen(0, '127.0.0.1');
  const httpUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, grpcPort: app.get(CapabilityServiceHost).grpcPort, httpUrl };
}

type Health = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'SERVICE_UNKNOWN';
type WatchableHealthClient = ReturnType<typeof createHealthClient> & {
  Watch(request: { service: string }): grpc.ClientReadableStream<{ status: Health }>;
};

function healthClient(port: number): WatchableHealthClient {
  return createHealthClient(`127.0.0.1:${port}`, {}) as WatchableHealthClient;
}

function healthOf(client: WatchableHealthClient, service: string): Promise<Health> {
  return new Promise((resolve, reject) =>
    client.check({ service }, { deadline: Date.now() + 5000 }, (error, response) =>
      error ? reject(error) : resolve(response!.status),
    ),
  );
}

/** Polls until the health status is `wanted` (bounded: fails the test after a few seconds). */
async function healthBecomes(client: WatchableHealthClient, wanted: Health): Promise<void> {
  const until = Date.now() + 5000;
  while ((await healthOf(client, '')) !== wanted) {
    if (Date.now() > until) throw new Error(`health did not become ${wanted}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function moderationClient(port: number) {
  const Moderation = loadService('moderation');
  return new Moderation(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

describe('the shared capability service host', () => {
  let controls: Controls;
  let service: Service | undefined;
  let clients: grpc.Client[] = [];

  beforeEach(() => {
    controls = new Controls();
  });
  afterEach(async () => {
    controls.loaded.open();
    controls.answer.open();
    for (const client of clients) client.close();
    clients = [];
    await service?.app.close();
    service = undefined;
  });

  it('answers NOT_SERVING while the models load and SERVING once they are warm', async () => {
    service = await listen(controls);
    const health = healthClient(service.grpcPort);
    clients.push(health);
    expect(await healthOf(health, '')).toBe('NOT_SERVING');
    expect(await healthOf(health, 'tessera.v1.Moderation')).toBe('NOT_SERVING');
    expect((await fetch(`${service.httpUrl}/healthz`)).status).toBe(200);
    const loading = await fetch(`${service.httpUrl}/readyz`);
    expect(loading.status).toBe(503);
    expect(await loading.json()).toMatchObject({ error: { models: { status: 'down' } } });

    controls.loaded.open();
    await service.app.get(CapabilityServiceHost).whenReady();
    expect(await healthOf(health, '')).toBe('SERVING');
    expect(await healthOf(health, 'tessera.v1.Moderation')).toBe('SERVING');
    expect((await fetch(`${service.httpUrl}/readyz`)).status).toBe(200);
  });

  it("follows the capability's own readiness parts", async () => {
    controls.loaded.open();
    service = await listen(controls);
    const health = healthClient(service.grpcPort);
    clients.push(health);
    await healthBecomes(health, 'SERVING');

    controls.engineUp = false;
    await healthBecomes(health, 'NOT_SERVING');
    const down = await fetch(`${service.httpUrl}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error: { engine: { status: 'down' } } });

    controls.engineUp = true;
    await healthBecomes(health, 'SERVING');
  });

  it('answers ListModels for the capability, with the models’ own created time', async () => {
    controls.loaded.open();
    const started = await startCapabilityService(TestModerationModule.forRoot(CONFIG, controls), {
      logger: false,
    });
    service = started;
    const client = moderationClient(started.grpcPort);
    clients.push(client);
    const listed = await new Promise<ListModelsResponse>((resolve, reject) =>
      client.ListModels({}, (error, response) => (error ? reject(error) : resolve(response!))),
    );
    expect(listed.models).toEqual([
      {
        id: 'guard',
        aliases: ['omni-moderation-latest'],
        capabilities: ['moderation'],
        created: 1_700_000_000,
        owned_by: 'tessera',
        // Only chat models state one.
        context_length: 0,
        uncovered_categories: ['illicit'],
        // Only speech models have voices.
        voices: [],
      },
    ]);
    const metrics = await (await fetch(`${started.httpUrl}/metrics`)).text();
    expect(metrics).toContain(
      'tessera_grpc_server_handled_total{method="tessera.v1.Moderation/ListModels",code="OK"',
    );
  });

  it('drains on shutdown: NOT_SERVING first, the call in flight completes, then the models close', async () => {
    controls.loaded.open();
    service = await listen(controls);
    const { app, grpcPort, httpUrl } = service;
    await app.get(CapabilityServiceHost).whenReady();
    const health = healthClient(grpcPort);
    const moderation = moderationClient(grpcPort);
    clients.push(health, moderation);

    const inFlight = new Promise<unknown>((resolve, reject) =>
      moderation.Classify({ model: 'guard', items: [] }, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
    await controls.callStarted.promise;

    const watch = health.Watch({ service: '' });
    const statuses: Health[] = [];
    const notServing = new Promise<void>((resolve) =>
      watch.on('data', ({ status }: { status: Health }) => {
        statuses.push(status);
        if (status === 'NOT_SERVING') resolve();
      }),
    );
    watch.on('error', () => undefined); // cancelled below
    await new Promise((resolve) => watch.once('data', resolve));

    const closing = app.close();
    await notServing;
    watch.cancel();
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
    // Still draining: /readyz says so, and the models are not closed under the call.
    const draining = await fetch(`${httpUrl}/readyz`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({ error: { accepting: { status: 'down' } } });
    expect(controls.events).toEqual([]);

    controls.answer.open();
    await expect(inFlight).resolves.toMatchObject({ model: 'guard' });
    await closing;
    service = undefined;
    expect(controls.events).toEqual(['call answered', 'models closed']);
  });

  it('cuts a call still running when the drain timeout ends, then closes the models', async () => {
    controls.loaded.open();
    service = await listen(controls, { ...CONFIG, drainTimeoutMs: 300 });
    const { app, grpcPort } = service;
    await app.get(CapabilityServiceHost).whenReady();
    const moderation = moderationClient(grpcPort);
    clients.push(moderation);
    const inFlight = new Promise<unknown>((resolve, reject) =>
      moderation.Classify({ model: 'guard', items: [] }, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
    await controls.callStarted.promise;
    const started = Date.now();
    await app.close(); // the call never answers by itself
    service = undefined;
    // Cut at the configured 300 ms, not at the 10 s default.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(inFlight).rejects.toMatchObject({ code: grpc.status.CANCELLED });
    expect(controls.events).toEqual(['models closed']);
    controls.answer.open();
  });

  it('refuses to start when the models cannot load, and closes what it opened', async () => {
    controls.loadFailure = new Error(
      'model guard: the local model directory /opt/guard does not exist',
    );
    controls.loaded.open();
    await expect(
      startCapabilityService(TestModerationModule.forRoot(CONFIG, controls), { logger: false }),
    ).rejects.toThrow('/opt/guard does not exist');
    expect(controls.events).toEqual(['models closed']);
  });
});
