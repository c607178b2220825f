// Boots the real speech service (ONNX Runtime on the tiny random-weight fixture voices, ffmpeg
// for the encoding) and the real gateway in this process, each on port 0, for the speech
// end-to-end tests; the models file they serve; and reads what a test needs from the service's
// /metrics.
import type { GatewayConfig } from '@tessera/config';
import { startCapabilityService } from '@tessera/service';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { SpeechModule } from '../../apps/speech/src/speech.module';
import { serviceCounterOf, startGateway, type TestService } from './test-stack';

/** The multi-speaker fixture voice as OpenAI's model names, with the voices of the seed. */
export const SPEECH_MODEL = 'tiny-piper-multi';
/**
 * The same voice with the model's `noise_scale` and `noise_w` at 0: one request always gives
 * the same audio.
 */
export const QUIET_MODEL = 'tiny-piper-multi-quiet';
/** The voice map of both: the six seed voices and two more names, each its own speaker. */
export const SPEECH_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer', 'ash', 'coral'];

const VOICE_FILE = 'tiny-piper-multi.onnx';

/**
 * The speech models of the e2e tests: the fixture voice behind tts-1, tts-1-hd and
 * gpt-4o-mini-tts, the same voice without noise, and an embeddings model (for "a model of another capability").
 * `options`: more model options for both speech models (YAML values, e.g. `{ workers: '2' }`).
 */
export function speechModelsFile(options: Record<string, string> = {}): string {
  const voices = SPEECH_VOICES.map(
    (name, speaker) => `        ${name}: { speaker: speaker_${speaker} }`,
  );
  const speech = (id: string, aliases: string, quiet: boolean) => [
    `  - id: ${id}`,
    '    capability: speech',
    `    source: ${JSON.stringify(fixtureModelDir(SPEECH_MODEL))}`,
    `    file: ${VOICE_FILE}`,
    `    aliases: [${aliases}]`,
    '    options:',
    ...Object.entries(options).map(([name, value]) => `      ${name}: ${value}`),
    ...(quiet ? ['      noise_scale: 0', '      noise_w: 0'] : []),
    '      voices:',
    ...voices,
  ];
  return temporaryModelsFile([
    'models:',
    ...speech(SPEECH_MODEL, 'tts-1, tts-1-hd, gpt-4o-mini-tts', false),
    ...speech(QUIET_MODEL, 'quiet-tts', true),
    '  - id: tiny-bert',
    '    capability: embeddings',
    `    source: ${JSON.stringify(fixtureModelDir('tiny-bert'))}`,
  ]);
}

export async function startSpeechService(modelsFile = speechModelsFile()) {
  return startCapabilityService(
    SpeechModule.forRoot({ host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile }),
    { logger: false },
  );
}

export async function startSpeechStack(
  modelsFile = speechModelsFile(),
  gatewayOverrides: Partial<GatewayConfig> = {},
) {
  const speech: TestService = await startSpeechService(modelsFile);
  const gateway = await startGateway({
    modelsFile,
    upstreams: { speech: `127.0.0.1:${speech.grpcPort}` },
    ...gatewayOverrides,
  });
  return {
    speech,
    gateway,
    close: async () => {
      await gateway.close();
      await speech.close();
    },
  };
}

export type SpeechStack = Awaited<ReturnType<typeof startSpeechStack>>;

/** Starts the speech stack before the file's tests and stops it after. */
export function useSpeechStack(
  modelsFile?: string,
  gatewayOverrides?: Partial<GatewayConfig>,
): () => SpeechStack {
  let stack: SpeechStack | undefined;
  beforeAll(async () => {
    stack = await startSpeechStack(modelsFile, gatewayOverrides);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the speech stack has not started');
    return stack;
  };
}

/** A counter of the speech service's /metrics (serviceCounterOf). */
export async function serviceCounter(
  stack: SpeechStack,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  return serviceCounterOf(stack.speech, name, labels);
}

/** The value an async reading settles at: the first that two readings `pollMs` apart agree on. */
export async function settledReading(
  read: () => Promise<number>,
  { timeoutMs = 30_000, pollMs = 300 } = {},
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const now = await read();
    if (now === last) return now;
    if (Date.now() > deadline) throw new Error(`reading did not settle within ${timeoutMs} ms`);
    last = now;
  }
}
