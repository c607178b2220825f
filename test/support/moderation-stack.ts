// Boots the real moderation service (ONNX Runtime on the tiny fixture classifiers) and the real
// gateway in this process, each on port 0, for the moderation end-to-end tests.
import { startCapabilityService } from '@tessera/service';
import { fixturesModelsFile } from '@tessera/testing';
import { ModerationModule } from '../../apps/moderation/src/moderation.module';
import { startGateway, type TestService } from './test-stack';

export async function startModerationService(modelsFile = fixturesModelsFile()) {
  return startCapabilityService(
    ModerationModule.forRoot({ host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile }),
    { logger: false },
  );
}

export async function startModerationStack(modelsFile = fixturesModelsFile()) {
  const moderation: TestService = await startModerationService(modelsFile);
  const gateway = await startGateway({
    modelsFile,
    upstreams: { moderation: `127.0.0.1:${moderation.grpcPort}` },
  });
  return {
    moderation,
    gateway,
    close: async () => {
      await gateway.close();
      await moderation.close();
    },
  };
}

export type ModerationStack = Awaited<ReturnType<typeof startModerationStack>>;

/** Starts the moderation stack before the file's tests and stops it after. */
export function useModerationStack(modelsFile?: string): () => ModerationStack {
  let stack: ModerationStack | undefined;
  beforeAll(async () => {
    stack = await startModerationStack(modelsFile);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the moderation stack has not started');
    return stack;
  };
}
