// What the gateway process loads: the built gateway (dist/, as `npm test` builds first), started
// as the launcher starts it in front of a real embeddings service, after it served a request.
// It runs no model, so none of the runtime (worker pool, engines), no ffmpeg plumbing, no Hub
// client and no ONNX Runtime may be among its modules: the libs it shares with the services
// (contracts, the models file) must not pull them in. A preload given through NODE_OPTIONS
// writes the process's require.cache when it exits.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import {
  startBuiltGateway,
  startBuiltService,
  type BuiltGateway,
  type BuiltService,
} from './support/built-processes';
import { TEST_API_KEY } from './support/test-stack';

/** Modules of the gateway's own code and libs, by their path under dist/ or node_modules/. */
const FORBIDDEN: ReadonlyArray<readonly [string, RegExp]> = [
  ['libs/runtime', /\/dist\/libs\/runtime\//],
  ['libs/audio', /\/dist\/libs\/audio\//],
  ['an engine lib', /\/dist\/libs\/(encoder|decoder|asr|tts)\//],
  ['libs/service', /\/dist\/libs\/service\//],
  ["libs/models' store and Hub client", /\/dist\/libs\/models\/src\/(hub|model-store|store\.)/],
  ['@huggingface/hub', /\/node_modules\/@huggingface\/hub\//],
  ['onnxruntime-node', /\/node_modules\/onnxruntime-node\//],
];

const PRELOAD = `
const { writeFileSync } = require('node:fs');
process.on('exit', () =>
  writeFileSync(process.env.TESSERA_TEST_MODULES_OUT, JSON.stringify(Object.keys(require.cache))),
);
`;

let dir: string;
let embeddings: BuiltService;
let gateway: BuiltGateway;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-footprint-'));
  writeFileSync(join(dir, 'preload.js'), PRELOAD);
  embeddings = await startBuiltService('embeddings');
  gateway = await startBuiltGateway(
    { embeddings },
    {
      NODE_OPTIONS: `--require ${join(dir, 'preload.js')}`,
      TESSERA_TEST_MODULES_OUT: join(dir, 'modules.json'),
      METRICS_PORT: '0',
    },
  );
}, 180_000);

afterAll(() => {
  for (const process of [gateway, embeddings]) process?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('loads none of the runtime, audio, the model store, the Hub client or ONNX Runtime', async () => {
  const client = new OpenAI({ apiKey: TEST_API_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const created = await client.embeddings.create({ model: 'tiny-bert', input: 'hello' });
  expect(created.data).toHaveLength(1);
  expect((await client.models.list()).data.map((model) => model.id)).toContain('tiny-bert');

  gateway.child.kill('SIGTERM');
  expect(await gateway.exited).toEqual({ code: 0, signal: null });
  const modules = JSON.parse(readFileSync(join(dir, 'modules.json'), 'utf8')) as string[];

  // The list is the gateway's: its module, the contracts and the models file loader are in it.
  for (const expected of [
    /\/dist\/apps\/gateway\/src\/gateway\.module\.js$/,
    /\/dist\/libs\/contracts\/src\/index\.js$/,
    /\/dist\/libs\/models\/src\/models-file\.loader\.js$/,
  ]) {
    expect(modules.some((module) => expected.test(module))).toBe(true);
  }
  const loaded = FORBIDDEN.flatMap(([name, pattern]) =>
    modules.filter((module) => pattern.test(module)).map((module) => `${name}: ${module}`),
  );
  expect(loaded).toEqual([]);
});
