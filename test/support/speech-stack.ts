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
