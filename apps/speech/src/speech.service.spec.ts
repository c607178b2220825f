// The speech service as it runs: real gRPC on port 0, the tiny fixture voices of
// config/models.fixtures.yaml in real ORT workers, espeak-ng and ffmpeg for real.
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import {
  grpcErrorDetails,
  loadService,
  type AudioChunk__Output,
  type ListModelsResponse,
} from '@tessera/contracts';
import { startCapabilityService, type RunningService } from '@tessera/service';
import { SpeechModule } from './speech.module';

const MODELS_FILE = join(__dirname, '../../../config/models.fixtures.yaml');

describe('the speech service on the tiny fixture voices', () => {
  let service: RunningService;
  let client: grpc.Client & Record<string, (...args: unknown[]) => unknown>;

  beforeAll(async () => {
    service = await startCapabilityService(
      SpeechModule.forRoot({
        host: '127.0.0.1',
        grpcPort: 0,
        httpPort: 0,
        modelsFile: MODELS_FILE,
      }),
      { logger: false },
    );
    const Speech = loadService('speech');
    client = new Speech(
      `127.0.0.1:${service.grpcPort}`,
      grpc.credentials.createInsecure(),
    ) as never;
  });
  afterAll(async () => {
    client?.close();
    await service?.close();
  });

  const synthesize = (request: object) =>
    (client.Synthesize as (r: object) => grpc.ClientReadableStream<AudioChunk__Output>)(request);

  async function collect(request: object): Promise<AudioChunk__Output[]> {
    const chunks: AudioChunk__Output[] = [];
    for await (const chunk of synthesize(request)) chunks.push(chunk as AudioChunk__Output);
    return chunks;
  }

  /** The sum of a metric's series (0 when it has none). */
  async function metricSum(name: string): Promise<number> {
    const metrics = await (await fetch(`${service.httpUrl}/metrics`)).text();
    return metrics
      .split('\n')
      .filter((l) => l.startsWith(`${name}{`))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  }
  const runsCounted = () => metricSum('tessera_speech_voice_runs_total');

  it('lists the model with its voices, sorted', async () => {
    const listed = await new Promise<ListModelsResponse>((resolve, reject) =>
      (client.ListModels as (r: object, cb: grpc.requestCallback<ListModelsResponse>) => void)(
        {},
        (error, response) => (error ? reject(error) : resolve(response!)),
      ),
    );
    expect(listed.models).toHaveLength(1);
    expect(listed.models![0]).toMatchObject({
      id: 'tiny-piper',
      voices: ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'shimmer', 'tiny'],
    });
  });

  it('streams pcm: content type and rate first, usage last, 24 kHz samples between', async () => {
    const chunks = await collect({
      model: 'tts-1',
      input: 'Hello world. Is it true? Yes, it is!',
      voice: 'nova',
      response_format: 'pcm',
    });
    expect(chunks[0]).toMatchObject({ content_type: 'audio/pcm', sample_rate: 24000 });
    const last = chunks[chunks.length - 1];
    const bytes = chunks.reduce((sum, chunk) => sum + chunk.data.length, 0);
    expect(last.usage!.input_tokens).toBeGreaterThan(20);
    // Samples at 22050 Hz / 256, resampled to 24 kHz 16-bit: about 24000/22050 × 256 × 2 bytes each.
    const expected = last.usage!.output_tokens * 256 * (24000 / 22050) * 2;
    expect(Math.abs(bytes - expected) / expected).toBeLessThan(0.05);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it.each([
    [
      'an unknown voice',
      { voice: 'verse' },
      'voice',
      'Its voices: alloy, ash, coral, echo, fable, nova, onyx, shimmer, tiny',
    ],
    ['speed 5', { speed: 5 }, 'speed', 'between 0.25 and 4'],
    [
      'instructions',
      { instructions: 'Speak softly.' },
      'instructions',
      'cannot follow instructions',
    ],
    [
      'an unknown format',
      { response_format: 'ogg' },
      'response_format',
      'mp3, opus, aac, flac, wav, pcm',
    ],
    ['an empty input', { input: '' }, 'input', 'must not be empty'],
    ['4097 characters', { input: 'x'.repeat(4097) }, 'input', 'at most 4096'],
  ])(
    'refuses %s with INVALID_ARGUMENT naming the param, before any audio',
    async (_, bad, param, text) => {
      const request = { model: 'tts-1', input: 'Hello.', voice: 'alloy', ...bad };
      const error = await collect(request).then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error?.details).toContain(text);
      expect(grpcErrorDetails(error!).param).toBe(param);
    },
  );

  it('stops synthesising when the caller cancels after the first audio', async () => {
    const before = await runsCounted();
    const sentences = 40;
    const call = synthesize({
      model: 'tts-1',
      input: 'This is one short sentence. '.repeat(sentences),
      voice: 'alloy',
      response_format: 'mp3',
    });
    call.on('error', () => undefined);
    await new Promise((resolve) => call.once('data', resolve));
    call.cancel();
    // Let anything still queued settle, then count the runs this request made.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const made = (await runsCounted()) - before;
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(sentences);
    // The cancelled request gave back what it held: no voice counts work any more.
    expect(await metricSum('tessera_speech_backlog_characters')).toBe(0);
    expect(await metricSum('tessera_speech_characters_per_second')).toBeGreaterThan(0);
  });
});
