// The five capability services in this process on the fixture models, and gateways in front of
// them that bill into a usage log, for the usage tests: two keys with ids, the log read back as
// records, and the gateway's usage counters from /metrics.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { apiKeyFromRaw, type GatewayConfig } from '@tessera/config';
import { startCapabilityService, type RunningService } from '@tessera/service';
import { fixturesModelsFile } from '@tessera/testing';
import { parse, stringify } from 'yaml';
import { ChatModule } from '../../apps/chat/src/chat.module';
import { EmbeddingsModule } from '../../apps/embeddings/src/embeddings.module';
import type { UsageRecord } from '../../apps/gateway/src/usage/usage.record';
import { ModerationModule } from '../../apps/moderation/src/moderation.module';
import { SpeechModule } from '../../apps/speech/src/speech.module';
import { TranscriptionModule } from '../../apps/transcription/src/transcription.module';
import { startGateway, type TestGateway } from './test-stack';

/** Raw keys (what must never show up) and the ids the log names them by. */
export const KEYS = { teamA: 'tsk-usage-team-a-secret', teamB: 'tsk-usage-team-b-secret' };
export const KEY_IDS = { teamA: 'team-a', teamB: 'team-b' };

/** The fixture models the usage tests call; the services load only these (start-up time). */
const USED_MODELS = new Set([
  'tiny-bert',
  'tiny-llama',
  'tiny-smolvlm',
  'tiny-moderation',
  'tiny-piper',
  'tiny-whisper',
]);

/** Every local `source` in `value` (a model's, its classifiers') made absolute from `dir`. */
function absoluteSources(value: unknown, dir: string): unknown {
  if (Array.isArray(value)) return value.map((item) => absoluteSources(item, dir));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === 'source' && typeof item === 'string' && !item.startsWith('hf:')
        ? path.resolve(dir, item)
        : absoluteSources(item, dir),
    ]),
  );
}

/** The fixtures' models file cut down to USED_MODELS, written to a temporary folder. */
function usedModelsFile(): string {
  const fixtures = fixturesModelsFile();
  const { models } = parse(fs.readFileSync(fixtures, 'utf8')) as { models: { id: string }[] };
  const used = absoluteSources(
    models.filter((model) => USED_MODELS.has(model.id)),
    path.dirname(fixtures),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-usage-models-'));
  const file = path.join(dir, 'models.yaml');
  fs.writeFileSync(file, stringify({ models: used }));
  return file;
}

export async function startServices(): Promise<{
  modelsFile: string;
  upstreams: GatewayConfig['upstreams'];
  close(): Promise<void>;
}> {
  const modelsFile = usedModelsFile();
  const config = { host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile };
  const services: Record<string, RunningService> = {};
  // One after the other: five model loads at once would only fight over two cores.
  for (const [name, module] of [
    ['embeddings', EmbeddingsModule.forRoot(config)],
    ['chat', ChatModule.forRoot(config)],
    ['moderation', ModerationModule.forRoot(config)],
    ['speech', SpeechModule.forRoot(config)],
    ['transcription', TranscriptionModule.forRoot(config)],
  ] as const) {
    services[name] = await startCapabilityService(module, { logger: false });
  }
  return {
    modelsFile,
    upstreams: Object.fromEntries(
      Object.entries(services).map(([name, service]) => [name, `127.0.0.1:${service.grpcPort}`]),
    ),
    close: async () => {
      await Promise.all(Object.values(services).map((service) => service.close()));
    },
  };
}

export function temporaryUsageLog(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-usage-')), 'usage.jsonl');
}

export function startUsageGateway(
  services: { modelsFile: string; upstreams: GatewayConfig['upstreams'] },
  usageLogFile: string,
  overrides: Partial<GatewayConfig> = {},
): Promise<TestGateway> {
  return startGateway({
    modelsFile: services.modelsFile,
    upstreams: services.upstreams,
    usageLogFile,
    // Transcription on the random-weight fixture on a busy machine can take a while.
    requestTimeoutMs: 120_000,
    apiKeys: [apiKeyFromRaw(KEYS.teamA, KEY_IDS.teamA), apiKeyFromRaw(KEYS.teamB, KEY_IDS.teamB)],
    ...overrides,
  });
}

/** Every record of the log, in order (every line must be one whole JSON record). */
export function readUsageLog(file: string): UsageRecord[] {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as UsageRecord);
}

/** The records of one request id. */
export function recordsOf(file: string, requestId: string): UsageRecord[] {
  return readUsageLog(file).filter((record) => record.requestId === requestId);
}

/** The gateway's /metrics value of a usage series with these labels (0 when absent). */
export async function usageMetric(
  gateway: TestGateway,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const text = await (await fetch(`${gateway.metricsUrl}/metrics`)).text();
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = text.split('\n').find((candidate) => {
    // Beside the registry's own default labels (service, …).
    const match = /^(\w+)\{(.*)\} /.exec(candidate);
    const present = new Set(match?.[2].split(','));
    return match?.[1] === name && wanted.every((label) => present.has(label));
  });
  return line ? Number(line.split(' ').pop()) : 0;
}
