// The stack one spec file of the webgpu suite talks to: the built capability services it needs
// and the gateway, as separate processes on loopback wired over real gRPC (as the launcher runs
// them), all reading the suite's models file, where each fixture model is served twice: `<id>`
// on ONNX Runtime's CPU provider and `<id>-webgpu` on its WebGPU provider.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Capability } from '@tessera/contracts';
import OpenAI from 'openai';
import {
  startBuiltGateway,
  startBuiltService,
  type BuiltGateway,
  type BuiltService,
} from '../support/built-processes';
import { TEST_API_KEY } from '../support/test-stack';
import { expectProvidersAsConfigured } from './provider.check';

export const WEBGPU_MODELS_FILE = path.join(__dirname, 'models.webgpu.yaml');

/** The id of a model's twin on the WebGPU provider. */
export const onWebgpu = (model: string): string => `${model}-webgpu`;

/** Loading and warming every model, shaders compiled on a software Vulkan driver included. */
const START_TIMEOUT_MS = 300_000;

export interface WebgpuStack {
  readonly services: Readonly<Partial<Record<Capability, BuiltService>>>;
  readonly gateway: BuiltGateway;
  readonly client: OpenAI;
}

/**
 * The Vulkan loader wants a runtime directory and complains on every start without one; any
 * writable directory serves (a CI job or container seldom has a session's).
 */
function vulkanEnvironment(): { env: Record<string, string>; made?: string } {
  const given = process.env.XDG_RUNTIME_DIR;
  if (given) return { env: { XDG_RUNTIME_DIR: given } };
  const made = mkdtempSync(path.join(tmpdir(), 'tessera-xdg-'));
  return { env: { XDG_RUNTIME_DIR: made }, made };
}

/**
 * Starts the services of `capabilities` (one after the other: each compiles its shaders on the
 * cores the next would need), checks that each model runs on the provider its entry names first,
 * and starts the gateway, before the file's tests; kills them after.
 */
export function useWebgpuStack(capabilities: readonly Capability[]): () => WebgpuStack {
  let stack: WebgpuStack | undefined;
  const started: { kill(): void; exited: Promise<unknown> }[] = [];
  let runtimeDir: string | undefined;
  beforeAll(async () => {
    const vulkan = vulkanEnvironment();
    runtimeDir = vulkan.made;
    const env = { TESSERA_MODELS_FILE: WEBGPU_MODELS_FILE, ...vulkan.env };
    const services: Partial<Record<Capability, BuiltService>> = {};
    for (const capability of capabilities) {
      const service = await startBuiltService(capability, env);
      started.push(service);
      services[capability] = service;
    }
    // Before any comparison: a model that fell back to the CPU would compare the CPU with itself.
    for (const capability of capabilities) {
      await expectProvidersAsConfigured(services[capability]!, capability, WEBGPU_MODELS_FILE);
    }
    const gateway = await startBuiltGateway(services, env);
    started.push(gateway);
    const client = new OpenAI({
      apiKey: TEST_API_KEY,
      baseURL: `${gateway.url}/v1`,
      maxRetries: 0,
      timeout: 120_000,
    });
    stack = { services, gateway, client };
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    for (const process of started) process.kill();
    await Promise.all(started.map((process) => process.exited));
    if (runtimeDir) rmSync(runtimeDir, { recursive: true, force: true });
  });
  return () => {
    if (!stack) throw new Error('the webgpu stack has not started');
    return stack;
  };
}
