// What `npm start` does with a Hub model that is not in the cache: the built launcher pulls it
// (through @huggingface/hub, from a stand-in for the Hub serving the tiny-bert fixture) into the
// Hugging Face cache layout, and the embeddings service then loads it from there.
// Needs `npm run build` first (`npm test` does it).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixtureModelDir, repoRoot, temporaryModelsFile } from '@tessera/testing';
import OpenAI from 'openai';
import { FakeHub } from '../libs/models/test/fake-hub.server';
import { freePort } from '../tools/stack/ports';

const LAUNCHER = path.join(repoRoot(), 'dist/tools/stack/start.js');
const KEY = 'tsk-launcher-pull-test';

let work: string;
let modelsFile: string;
let hub: FakeHub;
let launcher: ChildProcess;
let output = '';

beforeAll(async () => {
  if (!existsSync(LAUNCHER)) throw new Error(`${LAUNCHER} is missing: run npm run build`);
  work = mkdtempSync(path.join(os.tmpdir(), 'tessera-launcher-pull-'));
  cpSync(fixtureModelDir('tiny-bert'), path.join(work, 'hub', 'tessera-test', 'tiny-bert'), {
    recursive: true,
  });
  hub = await FakeHub.start(path.join(work, 'hub'));
});

afterAll(async () => {
  if (launcher && launcher.exitCode === null) {
    const exited = new Promise((resolve) => launcher.once('exit', resolve));
    launcher.kill('SIGTERM');
    await exited;
  }
  await hub?.stop();
  rmSync(work, { recursive: true, force: true });
  if (modelsFile) rmSync(path.dirname(modelsFile), { recursive: true, force: true });
});

it('pulls a missing Hub model into the cache, then serves it', async () => {
  modelsFile = temporaryModelsFile([
    'models:',
    '  - id: tiny-bert',
    '    capability: embeddings',
    '    source: hf:tessera-test/tiny-bert',
  ]);
  const port = await freePort();
  const cache = path.join(work, 'cache');
  launcher = spawn(process.execPath, [LAUNCHER, '--models', modelsFile], {
    env: {
      ...process.env,
      PORT: String(port),
      TESSERA_API_KEYS: KEY,
      TESSERA_MODEL_CACHE: cache,
      HF_ENDPOINT: hub.endpoint,
      // CI runs offline and may sit behind a proxy; this Hub is on loopback.
      HF_HUB_OFFLINE: '',
      TESSERA_OFFLINE: '',
      HTTP_PROXY: '',
      http_proxy: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  launcher.stdout!.on('data', (chunk) => (output += chunk));
  launcher.stderr!.on('data', (chunk) => (output += chunk));
  const baseURL = `http://127.0.0.1:${port}/v1`;
  await waitFor(() => output.includes(`Tessera is serving the OpenAI API at ${baseURL}`));

  expect(output).toContain(`tessera: pulling tiny-bert into ${cache}`);
  expect(output).toContain('  onnx/model.onnx (');
  const repoFolder = path.join(cache, 'models--tessera-test--tiny-bert');
  expect(readFileSync(path.join(repoFolder, 'refs', 'main'), 'utf8')).toBe(hub.commit);
  expect(existsSync(path.join(repoFolder, 'snapshots', hub.commit, 'onnx', 'model.onnx'))).toBe(
    true,
  );

  const client = new OpenAI({ apiKey: KEY, baseURL, maxRetries: 0 });
  const response = await client.embeddings.create({ model: 'tiny-bert', input: 'hello world' });
  expect(response.data[0].embedding).toHaveLength(32);
}, 90_000);

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (launcher.exitCode !== null || Date.now() > deadline)
      throw new Error(`the launcher did not start; its output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
