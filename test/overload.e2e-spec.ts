// Every capability service bounds its queue: a burst far beyond what a model can hold is
// answered with 429s (OpenAI body, Retry-After) for what does not fit, and the rest is served;
// never a 5xx. Each model here gets one worker and room for one waiting item
// (`max_queued_items: 1` in the models file; the default is 4096).
import type { DynamicModule } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import type { Capability } from '@tessera/contracts';
import { startCapabilityService, type RunningService } from '@tessera/service';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { ChatModule } from '../apps/chat/src/chat.module';
import { EmbeddingsModule } from '../apps/embeddings/src/embeddings.module';
import { ModerationModule } from '../apps/moderation/src/moderation.module';
import { SpeechModule } from '../apps/speech/src/speech.module';
import { TranscriptionModule } from '../apps/transcription/src/transcription.module';
import { expectOpenAIError } from './support/openai-error.expect';
import { capabilityRequests } from '../bench/lib/capability.requests';
import { TEST_API_KEY, startGateway, type TestGateway } from './support/test-stack';
import { testAudio } from './support/transcription-stack';

const source = (name: string) => JSON.stringify(fixtureModelDir(name));
const BOUND = 'max_queued_items: 1, workers: 1, intra_op_threads: 1';

const modelsFile = temporaryModelsFile([
  'models:',
  `  - { id: tiny-bert, capability: embeddings, source: ${source('tiny-bert')}, options: { ${BOUND} } }`,
  `  - { id: tiny-llama, capability: chat, source: ${source('tiny-llama')}, options: { ${BOUND}, max_sequences: 1 } }`,
  `  - id: tiny-toxic-bert`,
  '    capability: moderation',
  `    source: ${source('tiny-toxic-bert')}`,
  `    options: { ${BOUND}, categories: { harassment: { labels: [insult] } } }`,
  '  - id: tiny-piper',
  '    capability: speech',
  `    source: ${source('tiny-piper-multi')}`,
  '    file: tiny-piper-multi.onnx',
  `    options: { ${BOUND}, voices: { alloy: { speaker: speaker_0 } } }`,
  // One transcription runs and one waits (decoding its upload included); more are refused
  // before their upload is decoded.
  `  - id: tiny-whisper`,
  '    capability: transcription',
  `    source: ${source('tiny-whisper')}`,
  `    options: { ${BOUND}, concurrency: 1, max_queued_requests: 1 }`,
]);

const MODULES: Record<Capability, (config: ServiceConfig) => DynamicModule> = {
  embeddings: (config) => EmbeddingsModule.forRoot(config),
  chat: (config) => ChatModule.forRoot(config),
  moderation: (config) => ModerationModule.forRoot(config),
  speech: (config) => SpeechModule.forRoot(config),
  transcription: (config) => TranscriptionModule.forRoot(config),
};

const services = new Map<Capability, RunningService>();
let gateway: TestGateway;
let audio: Buffer;

beforeAll(async () => {
  for (const [capability, module] of Object.entries(MODULES) as [
    Capability,
    typeof MODULES.chat,
  ][]) {
    const config = { host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile };
    services.set(capability, await startCapabilityService(module(config), { logger: ['error'] }));
  }
  gateway = await startGateway({
    modelsFile,
    // The random-weight Whisper may decode to its token limit at every fallback temperature.
    requestTimeoutMs: 600_000,
    upstreams: Object.fromEntries(
      [...services].map(([capability, service]) => [capability, `127.0.0.1:${service.grpcPort}`]),
    ),
  });
  audio = await testAudio('wav', 1);
}, 180_000);

afterAll(async () => {
  await gateway?.close();
  for (const service of services.values()) await service.close();
});

/** The requests of one burst, all sent at once. */
const BURST = 24;

const requests = () =>
  capabilityRequests(
    gateway.url,
    TEST_API_KEY,
    {
      embeddings: 'tiny-bert',
      chat: 'tiny-llama',
      moderation: 'tiny-toxic-bert',
      speech: 'tiny-piper',
      transcription: 'tiny-whisper',
    },
    audio,
  );

describe.each(Object.keys(MODULES) as Capability[])('a burst of %s requests', (capability) => {
  it('is answered 200 or 429 with the OpenAI body and Retry-After, never 5xx', async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => requests()[capability]()),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses).toContain(200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expectOpenAIError(answer, 429, {
        param: null,
        code: 'rate_limit_exceeded',
        type: 'rate_limit_error',
        message: /busy|waiting/,
      });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The service is still healthy afterwards: one request alone is served.
    expect((await requests()[capability]()).status).toBe(200);
  }, 300_000); // a random-weight Whisper transcription of 1 s takes 8–20 s on two busy cores
});
