// Boots the real transcription service (ONNX Runtime on the tiny random-weight Whisper
// fixtures, ffmpeg decoding) and the real gateway in this process, each on port 0, for the
// transcription end-to-end tests; and makes the test audio: a tone encoded by the located
// ffmpeg into every upload format.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { locateFfmpeg } from '@tessera/audio';
import { startCapabilityService } from '@tessera/service';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { TranscriptionModule } from '../../apps/transcription/src/transcription.module';
import { startGateway, type TestService } from './test-stack';

const run = promisify(execFile);

/** The fixture with cross-attentions (words) behind OpenAI's model names, and the one without. */
export const WHISPER_MODEL = 'tiny-whisper';
export const NOALIGN_MODEL = 'tiny-whisper-noalign';

export function transcriptionModelsFile(): string {
  return temporaryModelsFile([
    'models:',
    `  - id: ${WHISPER_MODEL}`,
    '    capability: transcription',
    `    source: ${JSON.stringify(fixtureModelDir(WHISPER_MODEL))}`,
    '    aliases: [whisper-1, gpt-4o-mini-transcribe, gpt-4o-transcribe]',
    `  - id: ${NOALIGN_MODEL}`,
    '    capability: transcription',
    `    source: ${JSON.stringify(fixtureModelDir(NOALIGN_MODEL))}`,
    '  - id: tiny-bert',
    '    capability: embeddings',
    `    source: ${JSON.stringify(fixtureModelDir('tiny-bert'))}`,
  ]);
}

export async function startTranscriptionService(modelsFile = transcriptionModelsFile()) {
  return startCapabilityService(
    TranscriptionModule.forRoot({ host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile }),
    // Errors only: an unexpected failure (a 500) shows its cause in the CI log.
    { logger: ['error'] },
  );
}

export async function startTranscriptionStack(modelsFile = transcriptionModelsFile()) {
  const transcription: TestService = await startTranscriptionService(modelsFile);
  const gateway = await startGateway({
    modelsFile,
    upstreams: { transcription: `127.0.0.1:${transcription.grpcPort}` },
    // A 3-minute file on the random-weight fixture may fall back through every temperature.
    requestTimeoutMs: 600_000,
  });
  return {
    transcription,
    gateway,
    close: async () => {
      await gateway.close();
      await transcription.close();
    },
  };
}

export type TranscriptionStack = Awaited<ReturnType<typeof startTranscriptionStack>>;

export function useTranscriptionStack(): () => TranscriptionStack {
  let stack: TranscriptionStack | undefined;
  beforeAll(async () => {
    stack = await startTranscriptionStack();
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the transcription stack has not started');
    return stack;
  };
}

/** The encoder arguments per upload format (the extension names the container). */
const ENCODINGS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-f', 'mp3'],
  mpeg: ['-c:a', 'libmp3lame', '-f', 'mp3'],
  mpga: ['-c:a', 'libmp3lame', '-f', 'mp3'],
  mp4: ['-c:a', 'aac', '-f', 'mp4'],
  m4a: ['-c:a', 'aac', '-f', 'ipod'],
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  webm: ['-c:a', 'libopus', '-f', 'webm'],
  ogg: ['-c:a', 'libopus', '-f', 'ogg'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
};

export const UPLOAD_FORMATS = Object.keys(ENCODINGS);

/**
 * `seconds` of a tone that rises and falls in pitch and loudness (something for the encoder to
 * look at, not silence), 16 kHz mono, encoded as `format`.
 */
export async function testAudio(format: string, seconds: number): Promise<Buffer> {
  const ffmpeg = await locateFfmpeg();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-asr-audio-'));
  const out = path.join(dir, `clip.${format}`);
  try {
    await run(ffmpeg.path, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `aevalsrc=0.4*sin(2*PI*(220+110*sin(2*PI*0.5*t))*t)*(0.6+0.4*sin(2*PI*3*t)):s=16000:d=${seconds}`,
      '-ac',
      '1',
      ...ENCODINGS[format],
      '-y',
      out,
    ]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
