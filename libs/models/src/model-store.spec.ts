import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConnectProxy } from '../test/connect-proxy.server';
import { FakeHub, LISTING } from '../test/fake-hub.server';
import { parseModelsFile } from './models-file.loader';
import type { ModelSpec } from './model-spec';
import { ModelStore } from './model-store';
import {
  DownloadIntegrityError,
  HubOfflineError,
  HubResponseError,
  HubUnreachableError,
  ModelNotAvailableError,
} from './model-store.errors';
import type { PullProgressEvent } from './hub-snapshot.puller';

const REPO = 'tessera-test/tiny-encoder';

function spec(source: string, extra = ''): ModelSpec {
  const file = parseModelsFile(
    `models: [{id: tiny, capability: embeddings, source: "${source}"${extra}}]`,
    '/models.yaml',
  );
  return file.models[0] as ModelSpec;
}

function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
}

/** Every file under a directory (symlinks included), as '/'-separated relative paths. */
function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) =>
      path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}

describe('ModelStore', () => {
  let work: string;
  let cacheDir: string;
  let hub: FakeHub;
  let store: ModelStore;
  const model = randomBytes(70_000);
  const hubEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    TESSERA_MODEL_CACHE: cacheDir,
    HF_ENDPOINT: hub.endpoint,
    ...extra,
  });
  const repoFolder = () => path.join(cacheDir, 'models--tessera-test--tiny-encoder');
  const snapshot = (commit = hub.commit) => path.join(repoFolder(), 'snapshots', commit);

  beforeEach(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'tessera-model-store-'));
    cacheDir = path.join(work, 'cache');
    writeFiles(path.join(work, 'hub', REPO), {
      'config.json': '{"model_type":"bert"}',
      'tokenizer.json': '{"model":{}}',
      'tokenizer_config.json': '{}',
      'vocab.txt': '[PAD]\n[UNK]\n',
      'special tokens #1.json': '{"name":"#1"}',
      'README.md': '# tiny',
      'modules.json': '[]',
      '1_Pooling/config.json': '{"pooling_mode_mean_tokens":true}',
      'onnx/model.onnx': model,
      'onnx/model_quantized.onnx': randomBytes(20_000),
      'pytorch_model.bin': randomBytes(1000),
    });
    hub = await FakeHub.start(path.join(work, 'hub'));
    store = new ModelStore(hubEnv());
  });

  afterEach(async () => {
    await hub.stop();
    rmSync(work, { recursive: true, force: true });
  });

  describe('pull and resolve', () => {
    it('downloads what the model needs and resolves to the snapshot', async () => {
      const events: PullProgressEvent[] = [];
      const result = await store.pull(spec(`hf:${REPO}`), {
        onProgress: (event) => events.push(event),
      });

      const directory = snapshot();
      expect(result).toMatchObject({ directory, commit: hub.commit, alreadyCached: [] });
      expect(await store.resolve(spec(`hf:${REPO}`))).toBe(directory);
      expect(filesUnder(directory)).toEqual([
        '1_Pooling/config.json',
        'config.json',
        'modules.json',
        'onnx/model.onnx',
        'special tokens #1.json',
        'tokenizer.json',
        'tokenizer_config.json',
        'vocab.txt',
      ]);
      expect(readFileSync(path.join(directory, 'onnx/model.onnx')).equals(model)).toBe(true);
      expect(events).toContainEqual({
        type: 'file-start',
        file: 'onnx/model.onnx',
        totalBytes: model.length,
      });
      expect(events).toContainEqual({
        type: 'file-done',
        file: 'onnx/model.onnx',
        bytes: model.length,
        alreadyCached: false,
      });
      expect(hub.requests[0]).toMatch(new RegExp(`^/api/models/${REPO}/revision/main\\?`));
      expect(hub.requests.filter((request) => request.includes('/tree/')).length).toBeGreaterThan(
        1,
      );
    });

    it('writes the Hugging Face cache layout, which hf download and huggingface_hub read', async () => {
      await store.pull(spec(`hf:${REPO}`));
      const sha256 = createHash('sha256').update(model).digest('hex');
      expect(readFileSync(path.join(repoFolder(), 'refs', 'main'), 'utf8')).toBe(hub.commit);
      expect(readlinkSync(path.join(snapshot(), 'onnx/model.onnx'))).toBe(
        `../../../blobs/${sha256}`,
      );
      expect(readFileSync(path.join(repoFolder(), 'blobs', sha256)).equals(model)).toBe(true);
      const config = '{"model_type":"bert"}';
      const gitBlobId = createHash('sha1').update(`blob ${config.length}\0${config}`).digest('hex');
      expect(readlinkSync(path.join(snapshot(), 'config.json'))).toBe(`../../blobs/${gitBlobId}`);
    });

    it('writes a manifest recording the commit, its date and each file', async () => {
      await store.pull(spec(`hf:${REPO}`));
      const manifest = JSON.parse(
        readFileSync(path.join(repoFolder(), '.tessera', `${hub.commit}.json`), 'utf8'),
      );
      expect(manifest).toMatchObject({
        format: 2,
        source: `hf:${REPO}`,
        repo: REPO,
        revision: 'main',
        commit: hub.commit,
        commitDate: hub.lastModified,
        endpoint: hub.endpoint,
        repoFiles: expect.arrayContaining(['README.md', 'onnx/model_quantized.onnx']),
        files: {
          'onnx/model.onnx': {
            size: model.length,
            blob: createHash('sha256').update(model).digest('hex'),
          },
        },
      });
      await expect(store.createdAt(spec(`hf:${REPO}`))).resolves.toEqual(
        new Date(hub.lastModified),
      );
    });

    it('keeps files already pulled and adds those another dtype needs', async () => {
      await store.pull(spec(`hf:${REPO}`));
      await expect(store.resolve(spec(`hf:${REPO}`, ', dtype: q8'))).rejects.toThrow(
        'is cached without onnx/model_quantized.onnx',
      );

      hub.requests.length = 0;
      const result = await store.pull(spec(`hf:${REPO}`, ', dtype: q8'));
      expect(result.downloaded).toEqual(['onnx/model_quantized.onnx']);
      const fetched = hub.requests.filter((request) => request.includes('/resolve/'));
      expect(new Set(fetched)).toEqual(
        new Set([`/${REPO}/resolve/${hub.commit}/onnx/model_quantized.onnx`]),
      );
      await expect(store.resolve(spec(`hf:${REPO}`))).resolves.toBe(result.directory);
      await expect(store.resolve(spec(`hf:${REPO}`, ', dtype: q8'))).resolves.toBe(
        result.directory,
      );
    });

    it('pulls a moved revision into a new snapshot, fetching only the files that changed', async () => {
      const first = await store.pull(spec(`hf:${REPO}`));
      hub.commit = 'fedcba9876543210fedcba9876543210fedcba98';
      writeFileSync(path.join(work, 'hub', REPO, 'tokenizer.json'), '{"model":{"v":2}}');
      const result = await store.pull(spec(`hf:${REPO}`));
      expect(result).toMatchObject({ commit: hub.commit, downloaded: ['tokenizer.json'] });
      expect(result.alreadyCached).toContain('onnx/model.onnx');
      expect(result.directory).not.toBe(first.directory);
      await expect(store.resolve(spec(`hf:${REPO}`))).resolves.toBe(result.directory);
      expect(readFileSync(path.join(first.directory, 'tokenizer.json'), 'utf8')).toBe(
        '{"model":{}}',
      );
    });

    it('keeps serving the previous commit until the new one is complete', async () => {
      const first = await store.pull(spec(`hf:${REPO}`));
      hub.commit = 'fedcba9876543210fedcba9876543210fedcba98';
      writeFileSync(path.join(work, 'hub', REPO, 'vocab.txt'), '[PAD]\n');
      hub.fault('vocab.txt', { status: 500 });
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow('the Hub answered 500');
      await expect(store.resolve(spec(`hf:${REPO}`))).resolves.toBe(first.directory);
    });

    it('pulls through the proxy named by HTTP_PROXY', async () => {
      const proxy = await ConnectProxy.start();
      try {
        const proxied = new ModelStore(hubEnv({ HTTP_PROXY: proxy.url }));
        await proxied.pull(spec(`hf:${REPO}`));
        expect(proxy.tunnels).toContain(new URL(hub.endpoint).host);
      } finally {
        await proxy.stop();
      }
    });

    it('says the Hub is not reachable when the proxy is not', async () => {
      const port = await closedPort();
      const proxied = new ModelStore(hubEnv({ HTTP_PROXY: `http://127.0.0.1:${port}` }));
      const error = await proxied.pull(spec(`hf:${REPO}`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HubUnreachableError);
      expect((error as Error).message).toContain(`(connect ECONNREFUSED 127.0.0.1:${port})`);
      expect(hub.requests).toEqual([]);
    });

    it('sends HF_TOKEN as a bearer token', async () => {
      await hub.stop();
      hub = await FakeHub.start(path.join(work, 'hub'), { token: 'hf_secret' });
      const withToken = new ModelStore(hubEnv({ HF_TOKEN: 'hf_secret' }));
      await expect(withToken.pull(spec(`hf:${REPO}`))).resolves.toMatchObject({
        commit: hub.commit,
      });

      const without = new ModelStore(hubEnv({ TESSERA_MODEL_CACHE: path.join(work, 'other') }));
      await expect(without.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `cannot download hf:${REPO}: the Hub refused access (401) to ${REPO} at revision main (the Hub says: Invalid credentials in Authorization header): the repository does not exist, or it is private or gated and needs HF_TOKEN`,
      );
    });

    it('reports a cached model as available and a missing one as not', async () => {
      await expect(store.availability(spec(`hf:${REPO}`))).resolves.toBe('missing');
      await store.pull(spec(`hf:${REPO}`));
      await expect(store.availability(spec(`hf:${REPO}`))).resolves.toBe('cached');
    });
  });

  describe('resolve without a pull', () => {
    it('says how to pull the model', async () => {
      const error = await store.resolve(spec(`hf:${REPO}`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelNotAvailableError);
      expect((error as Error).message).toBe(
        `model tiny (hf:${REPO}) is not in the model cache (no snapshot of revision main in ${repoFolder()}); ` +
          'run "npm run models -- pull --model tiny" where the Hugging Face Hub is reachable ' +
          `(or copy a pulled cache to ${cacheDir}, see TESSERA_MODEL_CACHE), or point the models file at a local directory`,
      );
      expect(hub.requests).toEqual([]);
    });

    it('does not trust a snapshot whose files were damaged after the pull', async () => {
      const { directory } = await store.pull(spec(`hf:${REPO}`));
      writeFileSync(path.join(directory, 'onnx/model.onnx'), 'oops'); // through the symlink
      await expect(store.resolve(spec(`hf:${REPO}`))).rejects.toThrow(
        `has a missing or damaged cached file ${path.join(directory, 'onnx/model.onnx')}`,
      );
    });
  });

  describe('when the Hub cannot be used', () => {
    it('fails in offline mode without any request', async () => {
      const offline = new ModelStore(hubEnv({ HF_HUB_OFFLINE: '1' }));
      const error = await offline.pull(spec(`hf:${REPO}`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HubOfflineError);
      expect((error as Error).message).toContain(`cannot download hf:${REPO}: offline mode is on`);
      expect((error as Error).message).toContain('copy the cache (TESSERA_MODEL_CACHE)');
      expect(hub.requests).toEqual([]);
    });

    it('fails fast on an endpoint nobody listens on', async () => {
      const port = await closedPort();
      const unreachable = new ModelStore(hubEnv({ HF_ENDPOINT: `http://127.0.0.1:${port}` }));
      const error = await unreachable.pull(spec(`hf:${REPO}`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HubUnreachableError);
      expect((error as Error).message).toBe(
        `cannot download hf:${REPO}: the Hugging Face Hub at http://127.0.0.1:${port} is not reachable ` +
          `(connect ECONNREFUSED 127.0.0.1:${port}). Pull the model where the Hub is reachable and copy the cache ` +
          '(TESSERA_MODEL_CACHE), or point the models file at a local directory.',
      );
    });

    it('fails on an endpoint fetch will not connect to', async () => {
      const blocked = new ModelStore(hubEnv({ HF_ENDPOINT: 'http://127.0.0.1:1' }));
      await expect(blocked.pull(spec(`hf:${REPO}`))).rejects.toThrow(HubUnreachableError);
    });

    it('gives up on a Hub that does not answer', async () => {
      hub.fault(LISTING, { hang: true });
      const impatient = new ModelStore(hubEnv({ HF_HUB_ETAG_TIMEOUT: '0.2' }));
      await expect(impatient.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `the Hugging Face Hub at ${hub.endpoint} is not reachable (no answer within 0.2 s)`,
      );
    });

    it('gives up on a download that stops sending', async () => {
      hub.fault('onnx/model.onnx', { hang: true });
      const impatient = new ModelStore(hubEnv({ HF_HUB_ETAG_TIMEOUT: '0.2' }));
      await expect(impatient.pull(spec(`hf:${REPO}`))).rejects.toThrow(HubUnreachableError);
      expect(
        filesUnder(cacheDir).filter(
          (file) => file.includes('onnx') || file.includes('.incomplete'),
        ),
      ).toEqual([]);
    });
  });

  describe('when the Hub says no', () => {
    it('names a repository that does not exist', async () => {
      const error = await store
        .pull(spec('hf:tessera-test/nope'))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HubResponseError);
      expect(error).toMatchObject({ status: 404 });
      expect((error as Error).message).toBe(
        'cannot download hf:tessera-test/nope: repository tessera-test/nope (revision main) was not found on the Hub (404) (the Hub says: Repository not found)',
      );
    });

    it('names a revision that does not exist', async () => {
      await expect(store.pull(spec(`hf:${REPO}@v9`))).rejects.toThrow(
        `revision "v9" of ${REPO} was not found (404)`,
      );
    });

    it('names a listed file it cannot fetch', async () => {
      hub.fault('tokenizer.json', { status: 404 });
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `cannot download hf:${REPO}: tokenizer.json was not found in ${REPO} at revision main (404)`,
      );
    });

    it('explains a gated repository', async () => {
      hub.fault(LISTING, { status: 403 });
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `access to ${REPO} at revision main is forbidden (403)`,
      );
    });

    it('explains a gated repository from its error code', async () => {
      await hub.stop();
      hub = await FakeHub.start(path.join(work, 'hub'), { token: 'hf_secret', gated: true });
      store = new ModelStore(hubEnv());
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `cannot download hf:${REPO}: ${REPO} is a gated repository (401) (the Hub says: Access to model ${REPO} is restricted): accept its conditions on the Hub, then set HF_TOKEN to a token of that account`,
      );
    });

    it('names the ONNX files there are when the chosen one is not', async () => {
      await expect(store.pull(spec(`hf:${REPO}`, ', dtype: q4'))).rejects.toThrow(
        `cannot download hf:${REPO}: ${REPO} at revision main has no onnx/model_q4.onnx or other onnx/*_q4.onnx graphs (dtype q4); its ONNX files are onnx/model.onnx, onnx/model_quantized.onnx`,
      );
    });
  });

  describe('when a download goes wrong', () => {
    it('rejects a body shorter than Content-Length and keeps nothing of it', async () => {
      hub.fault('onnx/model.onnx', { truncateAfter: 1000 });
      const error = await store.pull(spec(`hf:${REPO}`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DownloadIntegrityError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^cannot download hf:${REPO}: onnx/model.onnx: the download broke off after \\d+ bytes \\(other side closed\\); the partial file was removed, run the pull again$`,
        ),
      );
      expectNoTraceOf('onnx/model.onnx');
      await expect(store.resolve(spec(`hf:${REPO}`))).rejects.toThrow(ModelNotAvailableError);
    });

    it('rejects a file whose size differs from the listing', async () => {
      hub.fault('onnx/model.onnx', { listedSize: model.length + 1 });
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `onnx/model.onnx: received ${model.length} bytes but the Hub lists the file as ${model.length + 1} bytes`,
      );
      expectNoTraceOf('onnx/model.onnx');
    });

    it('rejects a file whose sha256 differs from the listing', async () => {
      hub.fault('onnx/model.onnx', { listedHash: '0'.repeat(64) });
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `onnx/model.onnx: sha256 is ${createHash('sha256').update(model).digest('hex')} but the Hub lists ${'0'.repeat(64)}`,
      );
      expectNoTraceOf('onnx/model.onnx');
    });

    it('rejects a small file whose git blob id differs from the listing', async () => {
      hub.fault('vocab.txt', { listedHash: 'f'.repeat(40) });
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow(
        `vocab.txt: git blob id is ${createHash('sha1').update('blob 12\0[PAD]\n[UNK]\n').digest('hex')} but the Hub lists ${'f'.repeat(40)}`,
      );
      expectNoTraceOf('vocab.txt');
    });

    it('resumes after a failure without downloading the completed files again', async () => {
      hub.fault('vocab.txt', { status: 500 });
      await expect(store.pull(spec(`hf:${REPO}`))).rejects.toThrow('the Hub answered 500');
      hub.clearFaults();
      const result = await store.pull(spec(`hf:${REPO}`));
      expect(result.alreadyCached).toEqual(
        expect.arrayContaining(['1_Pooling/config.json', 'config.json', 'onnx/model.onnx']),
      );
      expect(result.downloaded).toEqual(['vocab.txt']);
    });

    it('stops when aborted and keeps nothing partial', async () => {
      hub.fault('onnx/model.onnx', { hang: true });
      const controller = new AbortController();
      const pulling = store.pull(spec(`hf:${REPO}`), {
        signal: controller.signal,
        onProgress: (event) => {
          if (event.type === 'file-done' && event.file === 'modules.json')
            setTimeout(() => controller.abort(new Error('interrupted')), 50);
        },
      });
      await expect(pulling).rejects.toThrow('interrupted');
      expectNoTraceOf('onnx/model.onnx');
    });

    function expectNoTraceOf(file: string): void {
      expect(filesUnder(snapshot())).not.toContain(file);
      expect(
        filesUnder(path.join(repoFolder(), 'blobs')).filter((blob) => blob.includes('.incomplete')),
      ).toEqual([]);
    }
  });

  describe('a cache shared with hf download', () => {
    const commit = 'a'.repeat(40);

    /** What `hf download tessera-test/tiny-encoder --cache-dir <cacheDir>` leaves behind. */
    function writeAsHfDownload(files: Record<string, string | Buffer>, at = commit): void {
      for (const [name, content] of Object.entries(files)) {
        const blob = createHash('sha256').update(content).digest('hex');
        writeFiles(path.join(repoFolder(), 'blobs'), { [blob]: content });
        const link = path.join(snapshot(at), name);
        mkdirSync(path.dirname(link), { recursive: true });
        symlinkSync(
          path.relative(path.dirname(link), path.join(repoFolder(), 'blobs', blob)),
          link,
        );
      }
      writeFiles(path.join(repoFolder(), 'refs'), { main: at });
    }

    it('resolves a snapshot that hf download wrote when it holds the chosen graph', async () => {
      writeAsHfDownload({ 'config.json': '{}', 'onnx/model.onnx': model });
      await expect(store.resolve(spec(`hf:${REPO}`))).resolves.toBe(snapshot(commit));
      await expect(store.resolve(spec(`hf:${REPO}`, ', dtype: q8'))).rejects.toThrow(
        `model tiny (hf:${REPO}) is cached without onnx/model_quantized.onnx or other onnx/*_quantized.onnx graphs (dtype q8)`,
      );
      await expect(store.createdAt(spec(`hf:${REPO}`))).resolves.toBeUndefined();
      expect(hub.requests).toEqual([]);
    });

    it('resolves a dtype that hf download added to a snapshot Tessera pulled', async () => {
      await store.pull(spec(`hf:${REPO}`));
      writeAsHfDownload({ 'onnx/model_quantized.onnx': randomBytes(100) }, hub.commit);
      await expect(store.resolve(spec(`hf:${REPO}`, ', dtype: q8'))).resolves.toBe(snapshot());
    });

    it('links the blobs hf download fetched instead of downloading them again', async () => {
      writeAsHfDownload({ 'onnx/model.onnx': model });
      const result = await store.pull(spec(`hf:${REPO}`));
      expect(result.alreadyCached).toEqual(['onnx/model.onnx']);
      expect(result.downloaded).toContain('config.json');
      expect(hub.requests.filter((request) => request.includes('model.onnx'))).toEqual([]);
      await expect(store.resolve(spec(`hf:${REPO}`))).resolves.toBe(result.directory);
    });
  });

  describe('local sources', () => {
    const localSpec = (directory: string, extra = '') => spec(directory, extra);

    it('resolve to the directory when it holds the chosen graph', async () => {
      const directory = path.join(work, 'local-model');
      writeFiles(directory, { 'config.json': '{}', 'onnx/model_fp16.onnx': 'x' });
      await expect(store.resolve(localSpec(directory, ', dtype: fp16'))).resolves.toBe(directory);
      await expect(store.availability(localSpec(directory, ', dtype: fp16'))).resolves.toBe(
        'local',
      );
      await expect(store.pull(localSpec(directory, ', dtype: fp16'))).resolves.toMatchObject({
        directory,
        downloaded: [],
      });
      expect(hub.requests).toEqual([]);
    });

    it('name the graph that is missing', async () => {
      const directory = path.join(work, 'local-model');
      writeFiles(directory, { 'onnx/model_fp16.onnx': 'x' });
      await expect(store.resolve(localSpec(directory))).rejects.toThrow(
        `model tiny: the local model directory ${directory} has no onnx/model.onnx or other onnx/*.onnx graphs (dtype fp32); it has onnx/model_fp16.onnx`,
      );
      await expect(store.resolve(localSpec(directory, ', file: voice.onnx'))).rejects.toThrow(
        `has no voice.onnx`,
      );
    });

    it('say when the directory does not exist, hinting at hf: for a repository name', async () => {
      const error = await store
        .resolve(spec('Xenova/all-MiniLM-L6-v2'))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelNotAvailableError);
      expect((error as Error).message).toBe(
        `model tiny: the local model directory ${path.resolve('/Xenova/all-MiniLM-L6-v2')} does not exist (for a Hub model write "source: hf:Xenova/all-MiniLM-L6-v2")`,
      );
      await expect(store.availability(spec('Xenova/all-MiniLM-L6-v2'))).resolves.toBe(
        'local-missing',
      );
    });
  });
});

/** A port that was free a moment ago, so that connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
