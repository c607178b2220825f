// Boots the real speech service (ONNX Runtime on the tiny random-weight fixture voices, ffmpeg
// for the encoding) and the real gateway in this process, each on port 0, for the speech
// end-to-end tests; and reads what a test needs from the service's /metrics.
import { startCapabilityService } from '@tessera/service';
import { fixturesModelsFile } from '@tessera/testing';
import { SpeechModule } from '../../apps/speech/src/speech.module';
import { startGateway, type TestService } from './test-stack';

export async function startSpeechService(modelsFile = fixturesModelsFile()) {
  return startCapabilityService(
    SpeechModule.forRoot({ host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile }),
    { logger: false },
  );
}

export async function startSpeechStack(modelsFile = fixturesModelsFile()) {
  const speech: TestService = await startSpeechService(modelsFile);
  const gateway = await startGateway({
    modelsFile,
    upstreams: { speech: `127.0.0.1:${speech.grpcPort}` },
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
export function useSpeechStack(modelsFile?: string): () => SpeechStack {
  let stack: SpeechStack | undefined;
  beforeAll(async () => {
    stack = await startSpeechStack(modelsFile);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the speech stack has not started');
    return stack;
  };
}

/**
 * The value of a counter of the speech service's /metrics (the sum over the series whose labels
 * include `labels`); 0 while no series exists.
 */
export async function serviceCounter(
  stack: SpeechStack,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(`${stack.speech.httpUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const series = match[2] ?? '';
    const wanted = Object.entries(labels).every(([key, value]) =>
      series.split(',').includes(`${key}="${value}"`),
    );
    if (wanted) total += Number(match[3]);
  }
  return total;
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
