import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeFixtureTool } from '../test/fake-fixture-tool';
import { locateFixtureTool } from './fixture-tool.locator';
import type { PullProgressEvent } from './hub-snapshot.puller';
import type { ModelSpec } from './model-spec';
import { ModelNotAvailableError } from './model-store.errors';
import { RegistryBuildError } from './registry-build.error';
import { RegistryModelBuilder, type RegistryBuilderOptions } from './registry-model.builder';
import type { RegistryRecipe } from './registry-recipes';

const recipe = (command: string): RegistryRecipe => ({
  name: `fake-${command}`,
  description: `a fake model (${command})`,
  command,
  outputBytes: 1000,
  duration: 'a moment',
});
const RECIPES = ['write', 'hang', 'no-python', 'fail', 'nothing'].map(recipe);

function specOf(command: string): ModelSpec {
  return {
    id: 'fake-model',
    capability: 'embeddings',
    source: { kind: 'registry', recipe: `fake-${command}`, raw: `registry:fake-${command}` },
    aliases: [],
    owned_by: 'tessera',
    options: {},
  };
}

describe('RegistryModelBuilder', () => {
  let work: string;
  let cacheDir: string;
  let tool: FakeFixtureTool;

  beforeEach(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'tessera-registry-'));
    cacheDir = path.join(work, 'cache');
    tool = new FakeFixtureTool(path.join(work, 'tool'));
    // The fake tool has no venv: tell the disk check the wheels are there, so it plans no venv
    // build larger than the machine running the specs.
    mkdirSync(path.join(tool.directory, '.venv', 'bin'), { recursive: true });
    writeFileSync(path.join(tool.directory, '.venv', 'bin', 'python'), '');
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  const builder = (options: Partial<RegistryBuilderOptions> = {}) =>
    new RegistryModelBuilder({
      cacheDir,
      toolDir: tool.directory,
      env: {},
      recipes: RECIPES,
      ...options,
    });
  const recipeFolder = (command: string) => path.join(cacheDir, `registry--fake-${command}`);
  async function build(command: string, options: Partial<RegistryBuilderOptions> = {}) {
    const spec = specOf(command);
    const events: PullProgressEvent[] = [];
    const result = await builder(options).build(spec, spec.source as never, {
      onProgress: (event) => events.push(event),
    });
    return { result, events };
  }
  const resolve = (command: string, options: Partial<RegistryBuilderOptions> = {}) =>
    builder(options).resolve(specOf(command), specOf(command).source as never);

  it('builds into the cache under its stamp, a line per stage, and resolves there', async () => {
    await expect(resolve('write')).rejects.toThrow(
      'model fake-model (registry:fake-write) is not in the model cache',
    );
    const { result, events } = await build('write');
    expect(path.dirname(result.directory)).toBe(recipeFolder('write'));
    expect(result.built).toEqual({ stamp: expect.stringMatching(/^[0-9a-f]{12}$/), reused: false });
    expect(readdirSync(recipeFolder('write'))).toEqual([path.basename(result.directory)]);
    expect(readdirSync(result.directory).sort()).toEqual([
      '.tessera-registry.json',
      'config.json',
      'onnx',
    ]);
    expect(events.map((event) => (event.type === 'stage' ? event.step : event.type))).toEqual([
      1,
      2,
      'output',
      'output',
      3,
    ]);
    expect(events).toContainEqual({ type: 'output', line: '[fake] done' });
    await expect(resolve('write')).resolves.toBe(result.directory);
  });

  it('does nothing the second time: the stamped build is reused', async () => {
    const first = await build('write');
    const second = await build('write');
    expect(second.result).toEqual({
      ...first.result,
      built: { ...first.result.built, reused: true },
    });
    expect(second.events).toEqual([]);
    expect(tool.runs()).toEqual(['write']);
  });

  it('rebuilds when the fixture tool changes, and drops the older build', async () => {
    const first = await build('write');
    tool.editSource('# version 2\n');
    await expect(resolve('write')).rejects.toThrow(
      'has only builds made by another version of the fixture tool',
    );
    const second = await build('write');
    expect(second.result.directory).not.toBe(first.result.directory);
    expect(readdirSync(recipeFolder('write'))).toEqual([path.basename(second.result.directory)]);
    expect(tool.runs()).toEqual(['write', 'write']);
  });

  it('without the fixture tool, serves the newest build and explains that it cannot build', async () => {
    const { result } = await build('write');
    await expect(resolve('write', { toolDir: undefined })).resolves.toBe(result.directory);
    rmSync(cacheDir, { recursive: true });
    const error = await build('write', { toolDir: undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryBuildError);
    expect(error).toMatchObject({ reason: 'tool' });
    expect((error as Error).message).toContain(
      'model fake-model: cannot build registry:fake-write: registry sources are built by the fixture tool',
    );
  });

  it('refuses to start without the free disk space it needs, saying how much', async () => {
    const error = await build('write', { freeBytes: async () => 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryBuildError);
    expect(error).toMatchObject({ reason: 'disk' });
    expect((error as Error).message).toMatch(
      /^model fake-model: cannot build registry:fake-write: not enough free disk space: the build needs about 1\.0 kB on the file system of .+ \(the converted model 1\.0 kB\), which has 500 B free\. Free some space and pull again\.$/,
    );
    expect(tool.runs()).toEqual([]);
  });

  it('counts the venv and the wheels when the fixture tool has not made its venv yet', async () => {
    rmSync(path.join(tool.directory, '.venv'), { recursive: true });
    const wheelhouse = path.join(work, 'wheels');
    const error = await build('write', {
      env: { TESSERA_WHEELHOUSE: wheelhouse },
      freeBytes: async () => 5_000_000_000,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      `needs about 12.5 GB on the file system of ${work} (the converted model 1.0 kB, ` +
        `the Python venv (tools/fixtures/.venv) 8.0 GB, the wheels (${wheelhouse}) 4.5 GB), which has 5.0 GB free`,
    );
  });

  it('says what to install when the fixture tool lacks Python 3.11, and keeps nothing', async () => {
    const error = await build('no-python').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryBuildError);
    expect(error).toMatchObject({ reason: 'prerequisite' });
    expect((error as Error).message).toBe(
      'model fake-model: cannot build registry:fake-no-python: run.sh: Python 3.11 not found: install it ' +
        '(Debian/Ubuntu: sudo apt-get install python3.11 python3.11-venv)\nThen pull again.',
    );
    expect(readdirSync(recipeFolder('no-python'))).toEqual([]);
  });

  it('the real fixture tool says what to install when its Python does not run', async () => {
    const real = locateFixtureTool({});
    expect(real).toBeDefined();
    const error = await build('real', {
      toolDir: real,
      env: { TESSERA_FIXTURES_PYTHON: path.join(work, 'no-such-python3.11') },
      recipes: [{ ...recipe('real'), command: 'real-piper' }],
      freeBytes: async () => Number.MAX_SAFE_INTEGER,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'prerequisite' });
    expect((error as Error).message).toContain(
      'does not run: install it (Debian/Ubuntu: sudo apt-get install python3.11 python3.11-venv;',
    );
    expect(readdirSync(recipeFolder('real'))).toEqual([]);
  });

  it('reports a failed conversion with its last lines, and keeps nothing', async () => {
    const error = await build('fail').catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'failed' });
    expect((error as Error).message).toContain(
      'tools/fixtures/run.sh fail failed (exit code 1); its last lines:\n  Traceback: boom\n',
    );
    expect(readdirSync(recipeFolder('fail'))).toEqual([]);
  });

  it('refuses a conversion that did not write the model graph', async () => {
    const error = await build('nothing').catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'output' });
    expect((error as Error).message).toContain('has no onnx/model.onnx');
    expect(readdirSync(recipeFolder('nothing'))).toEqual([]);
  });

  it('an aborted build stops the converter and leaves nothing in the cache', async () => {
    const interrupt = new AbortController();
    const spec = specOf('hang');
    const building = builder().build(spec, spec.source as never, {
      signal: interrupt.signal,
      onProgress: (event) => {
        if (event.type === 'output' && event.line === '[fake] started') interrupt.abort();
      },
    });
    await expect(building).rejects.toThrow();
    expect(readdirSync(recipeFolder('hang'))).toEqual([]);
    await expect(resolve('hang')).rejects.toBeInstanceOf(ModelNotAvailableError);
  });

  it('ignores the work of a build whose process died, and the next build removes it', async () => {
    // A pid above Linux's pid_max: no such process.
    const abandoned = path.join(recipeFolder('write'), '.building-99999999-0badc0de');
    mkdirSync(path.join(abandoned, 'model', 'onnx'), { recursive: true });
    writeFileSync(path.join(abandoned, 'model', 'onnx', 'model.onnx'), 'half');
    await expect(resolve('write')).rejects.toBeInstanceOf(ModelNotAvailableError);
    const { result, events } = await build('write');
    expect(events[0]).toEqual({
      type: 'output',
      line: 'removed an interrupted build (.building-99999999-0badc0de)',
    });
    expect(existsSync(abandoned)).toBe(false);
    await expect(resolve('write')).resolves.toBe(result.directory);
  });

  it.each([
    ['SIGTERM', 'nothing else handles it', false],
    ['SIGINT', 'nothing else handles it', false],
    ['SIGTERM', 'the process handles it by exiting, as npm start does', true],
  ] as const)(
    'a process stopped by %s during a build (%s) leaves nothing half-written',
    async (signal, _how, handled) => {
      const script = `
        if (${handled}) process.on(${JSON.stringify(signal)}, () => process.exit(0));
        const { RegistryModelBuilder } = require(${JSON.stringify(path.join(__dirname, 'registry-model.builder'))});
        const recipe = { name: 'fake-hang', description: 'x', command: 'hang', outputBytes: 1, duration: 'x' };
        const spec = { id: 'fake-model', capability: 'embeddings', aliases: [], owned_by: 't', options: {},
          source: { kind: 'registry', recipe: 'fake-hang', raw: 'registry:fake-hang' } };
        new RegistryModelBuilder({ cacheDir: ${JSON.stringify(cacheDir)}, toolDir: ${JSON.stringify(tool.directory)}, env: {}, recipes: [recipe] })
          .build(spec, spec.source, { onProgress: (e) => e.type === 'output' && console.log(e.line) });
      `;
      const child = spawn(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', '-e', script],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let output = '';
      await new Promise<void>((started) =>
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('[fake] started')) started();
        }),
      );
      expect(readdirSync(recipeFolder('hang'))).toEqual([
        expect.stringMatching(/^\.building-\d+-[0-9a-f]+$/),
      ]);
      child.kill(signal);
      const ended = await new Promise<NodeJS.Signals | number | null>((done) =>
        child.once('exit', (code, exitSignal) => done(exitSignal ?? code)),
      );
      expect(ended).toBe(handled ? 0 : signal);
      expect(readdirSync(recipeFolder('hang'))).toEqual([]);
    },
  );
});
