import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { loadModelsFile, type ModelsFile } from '@tessera/models';
import { ModelStore } from '@tessera/models/store';
import { fixtureModelDir } from '@tessera/testing';
import { FakeFixtureTool } from '../../libs/models/test/fake-fixture-tool';
import { FakeHub, LISTING } from '../../libs/models/test/fake-hub.server';
import { ModelsUnobtainableError } from './models-unobtainable.error';
import { freePort } from './ports';
import { resolveServedModels, type ResolveIo } from './served-models.resolver';

const DEFAULTS = [
  'models:',
  '  - id: tiny-bert',
  '    capability: embeddings',
  '    source: hf:tessera-test/tiny-bert',
  '    aliases: [text-embedding-3-small]',
  '  - id: tiny-whisper',
  '    capability: transcription',
  '    source: hf:tessera-test/tiny-whisper',
  '    aliases: [whisper-1]',
];

// Embeddings from a package registry (built by a stand-in for the fixture tool), transcription
// from a local directory.
const starterLines = (whisperSource = fixtureModelDir('tiny-whisper-noalign')) => [
  'models:',
  '  - id: starter-embeddings',
  '    capability: embeddings',
  '    source: registry:all-minilm-l6-v2',
  '    aliases: [text-embedding-3-small]',
  '  - id: starter-whisper',
  '    capability: transcription',
  `    source: ${JSON.stringify(whisperSource)}`,
  '    aliases: [whisper-1]',
];

describe('resolveServedModels (cached → Hub → starter → error)', () => {
  let work: string;
  let hub: FakeHub;
  let output: string;
  let starterReads: number;
  let tool: FakeFixtureTool;

  const io = (): ResolveIo => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    return { stdout: sink, stderr: sink, log: (line) => (output += `${line}\n`) };
  };
  const writeFile = (name: string, lines: readonly string[]): ModelsFile => {
    writeFileSync(path.join(work, name), [...lines, ''].join('\n'));
    return loadModelsFile(path.join(work, name));
  };
  const sources = (starter = starterLines()) => ({
    defaults: writeFile('models.yaml', DEFAULTS),
    starter: () => {
      starterReads++;
      return writeFile('models.starter.yaml', starter);
    },
  });
  const storeFor = (endpoint: string, extra: NodeJS.ProcessEnv = {}) =>
    new ModelStore({
      TESSERA_MODEL_CACHE: path.join(work, 'cache'),
      HF_ENDPOINT: endpoint,
      TESSERA_FIXTURES_TOOL: tool.directory,
      ...extra,
    });
  const hubHolding = async (...names: string[]) => {
    for (const name of names) {
      cpSync(fixtureModelDir(name), path.join(work, 'hub', 'tessera-test', name), {
        recursive: true,
      });
    }
    hub = await FakeHub.start(path.join(work, 'hub'));
    return hub;
  };
  const summary = (served: Awaited<ReturnType<typeof resolveServedModels>>) =>
    served.map(({ capability, origin, models }) => [capability, origin, models.map((m) => m.id)]);

  beforeEach(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'tessera-served-models-'));
    output = '';
    starterReads = 0;
    tool = new FakeFixtureTool(path.join(work, 'tool'));
    // As if its venv were built: the disk check then plans no venv larger than this machine.
    mkdirSync(path.join(tool.directory, '.venv', 'bin'), { recursive: true });
    writeFileSync(path.join(tool.directory, '.venv', 'bin', 'python'), '');
  });

  afterEach(async () => {
    await hub?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('serves cached models without asking the Hub or reading the starter file', async () => {
    const store = storeFor((await hubHolding('tiny-bert', 'tiny-whisper')).endpoint);
    const { defaults } = sources();
    for (const spec of defaults.models) await store.pull(spec);
    const asked = hub.requests.length;

    const served = await resolveServedModels(sources(), store, io());

    expect(summary(served)).toEqual([
      ['embeddings', 'cached', ['tiny-bert']],
      ['transcription', 'cached', ['tiny-whisper']],
    ]);
    expect(hub.requests).toHaveLength(asked);
    expect(starterReads).toBe(0);
  });

  it('pulls what is missing from a Hub that answers, and keeps the default models', async () => {
    const store = storeFor((await hubHolding('tiny-bert', 'tiny-whisper')).endpoint);

    const served = await resolveServedModels(sources(), store, io());

    expect(summary(served)).toEqual([
      ['embeddings', 'pulled', ['tiny-bert']],
      ['transcription', 'pulled', ['tiny-whisper']],
    ]);
    for (const spec of sources().defaults.models) {
      expect(await store.availability(spec)).toBe('cached');
    }
    expect(starterReads).toBe(0);
  });

  it('serves every missing capability from the starter file when the Hub is unreachable', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;

    const served = await resolveServedModels(sources(), storeFor(closed), io());

    expect(summary(served)).toEqual([
      ['embeddings', 'starter', ['starter-embeddings']],
      ['transcription', 'starter', ['starter-whisper']],
    ]);
    for (const { fallbackReason } of served) {
      expect(fallbackReason).toMatch(
        new RegExp(`^the Hugging Face Hub at ${closed} is not reachable \\(.*ECONNREFUSED`),
      );
    }
    expect(served[0]!.file.path).toBe(path.join(work, 'models.starter.yaml'));
    expect(tool.runs()).toEqual(['real-minilm']);
    expect(output).toContain('starter-embeddings: building registry:all-minilm-l6-v2');
  });

  it('builds a registry starter model once: the next start finds it in the cache', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    await resolveServedModels(sources(), storeFor(closed), io());
    output = '';

    const served = await resolveServedModels(sources(), storeFor(closed), io());

    expect(served.map(({ origin }) => origin)).toEqual(['starter', 'starter']);
    expect(tool.runs()).toEqual(['real-minilm']);
    expect(output).not.toContain('building');
  });

  it('asks a Hub that never answers once, for the probe time only', async () => {
    (await hubHolding('tiny-bert', 'tiny-whisper')).fault(LISTING, { hang: true });

    const served = await resolveServedModels(sources(), storeFor(hub.endpoint), io(), 300);

    expect(hub.requests).toEqual(['/api/models/tessera-test/tiny-bert/revision/main']);
    expect(served.map(({ origin }) => origin)).toEqual(['starter', 'starter']);
    expect(served[0]!.fallbackReason).toBe(
      `the Hugging Face Hub at ${hub.endpoint} is not reachable (no answer within 0.3 s)`,
    );
  });

  it('does not ask the Hub in offline mode', async () => {
    await hubHolding('tiny-bert', 'tiny-whisper');
    const store = storeFor(hub.endpoint, { HF_HUB_OFFLINE: '1' });

    const served = await resolveServedModels(sources(), store, io());

    expect(hub.requests).toEqual([]);
    expect(served.map(({ origin }) => origin)).toEqual(['starter', 'starter']);
    expect(served[0]!.fallbackReason).toContain('offline mode is on');
  });

  it('on a Hub that has only some models, pulls those and serves the rest from the starter', async () => {
    const store = storeFor((await hubHolding('tiny-bert')).endpoint);

    const served = await resolveServedModels(sources(), store, io());

    expect(summary(served)).toEqual([
      ['embeddings', 'pulled', ['tiny-bert']],
      ['transcription', 'starter', ['starter-whisper']],
    ]);
    expect(tool.runs()).toEqual([]);
    expect(served[1]!.fallbackReason).toBe(`pulling from ${hub.endpoint} failed (see above)`);
    // The pull's own explanation is shown, not swallowed.
    expect(output).toContain('error: cannot download hf:tessera-test/tiny-whisper:');
  });

  it('stops with the model, the sources tried and what to do when the starter fails too', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const gone = path.join(work, 'no-such-whisper');

    const failure = resolveServedModels(sources(starterLines(gone)), storeFor(closed), io());

    await expect(failure).rejects.toThrow(ModelsUnobtainableError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain('cannot serve transcription');
    expect(message).toContain('tiny-whisper (hf:tessera-test/tiny-whisper): not cached and ');
    expect(message).toContain(`is not reachable`);
    expect(message).toContain(`starter-whisper (${gone})`);
    expect(message).toContain('set HF_ENDPOINT to a mirror');
  });

  it('stops naming the model, its sources and what to install when Python is missing', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const missingPython =
      'run.sh: Python 3.11 not found: install it (Debian/Ubuntu: sudo apt-get install python3.11 python3.11-venv)';
    writeFileSync(
      path.join(tool.directory, 'run.sh'),
      `#!/usr/bin/env bash\necho "${missingPython}" >&2\nexit 3\n`,
    );

    const failure = resolveServedModels(sources(), storeFor(closed), io());

    await expect(failure).rejects.toThrow(ModelsUnobtainableError);
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain('cannot serve embeddings');
    expect(message).toContain('tiny-bert (hf:tessera-test/tiny-bert): not cached and ');
    expect(message).toContain('starter-embeddings (registry:all-minilm-l6-v2)');
    expect(message).toContain(missingPython);
  });

  it('stops when the starter file has no model for a capability it must serve', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;

    const failure = resolveServedModels(
      sources(starterLines().slice(0, 5)),
      storeFor(closed),
      io(),
    );

    await expect(failure).rejects.toThrow(
      `${path.join(work, 'models.starter.yaml')} has no model for transcription`,
    );
  });
});
