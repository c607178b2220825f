// The import-cycle check run as `npm run lint` runs it, on small trees written for each case.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const SCRIPT = join(__dirname, 'import-cycles.mjs');

const TSCONFIG = {
  compilerOptions: {
    module: 'commonjs',
    strict: true,
    baseUrl: './',
    paths: { '@demo/a': ['libs/a/src'], '@demo/b': ['libs/b/src'] },
  },
  include: ['apps', 'libs'],
};

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  write('tsconfig.json', JSON.stringify(TSCONFIG));
  write('libs/a/src/index.ts', "export { one } from './one';\n");
  write('libs/a/src/one.ts', 'export const one = 1;\n');
  write('libs/b/src/index.ts', "export { two } from './two';\n");
  write('libs/b/src/two.ts', "import { one } from '@demo/a';\nexport const two = one + 1;\n");
  write('apps/web/src/main.ts', "import { two } from '@demo/b';\nexport const main = two;\n");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

function check(): { status: number | null; stderr: string } {
  const { status, stderr } = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status, stderr };
}

it('passes a tree whose imports point one way', () => {
  expect(check()).toEqual({ status: 0, stderr: '' });
});

it('fails on a cycle inside a lib made of type-only imports, naming its files', () => {
  write('libs/a/src/shape.ts', "import type { Size } from './size';\nexport type Shape = Size;\n");
  write(
    'libs/a/src/size.ts',
    "import type { Shape } from './shape';\nexport type Size = Shape[];\n",
  );
  const { status, stderr } = check();
  expect(status).toBe(1);
  expect(stderr).toContain('import cycle through 2 files');
  expect(stderr).toContain('libs/a/src/shape.ts');
  expect(stderr).toContain('libs/a/src/size.ts');
});

it('fails on a cycle between libs through the path aliases', () => {
  write(
    'libs/a/src/index.ts',
    "export { one } from './one';\nexport type { Two } from './uses-b';\n",
  );
  write(
    'libs/a/src/uses-b.ts',
    "import type { two } from '@demo/b';\nexport type Two = typeof two;\n",
  );
  const { status, stderr } = check();
  expect(status).toBe(1);
  expect(stderr).toContain('import cycle through');
  expect(stderr).toContain('lib cycle through 2 libs');
});

it('fails on libs that import each other even when no chain of files closes', () => {
  write('libs/a/src/three.ts', "import { two } from '@demo/b';\nexport const three = two + 1;\n");
  // b/two imports a/one through a's index, a/three imports b's index: no file loop, a lib loop.
  const { status, stderr } = check();
  expect(status).toBe(1);
  expect(stderr).not.toContain('import cycle through');
  expect(stderr).toContain('lib cycle through 2 libs');
  expect(stderr).toContain('libs/a/src/three.ts -> libs/b/src/index.ts');
});

it('fails on a lib importing an app', () => {
  write(
    'libs/a/src/one.ts',
    "export { main } from '../../../apps/web/src/main';\nexport const one = 1;\n",
  );
  const { status, stderr } = check();
  expect(status).toBe(1);
  expect(stderr).toContain('lib imports an app: libs/a/src/one.ts -> apps/web/src/main.ts');
});

it('fails on a benchmark importing an app', () => {
  write('tsconfig.json', JSON.stringify({ ...TSCONFIG, include: ['apps', 'libs', 'bench'] }));
  write('bench/web/web.bench.ts', "import { main } from '../../apps/web/src/main';\nvoid main;\n");
  const { status, stderr } = check();
  expect(status).toBe(1);
  expect(stderr).toContain(
    'benchmark imports an app: bench/web/web.bench.ts -> apps/web/src/main.ts',
  );
});

it('fails on libs/contracts importing another lib, type-only imports included', () => {
  const paths = { ...TSCONFIG.compilerOptions.paths, '@demo/contracts': ['libs/contracts/src'] };
  write(
    'tsconfig.json',
    JSON.stringify({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, paths } }),
  );
  write('libs/contracts/src/index.ts', 'export const CAPABILITIES = [];\n');
  expect(check()).toEqual({ status: 0, stderr: '' });
  write(
    'libs/contracts/src/index.ts',
    "import type { one } from '@demo/a';\nexport const CAPABILITIES: (typeof one)[] = [];\n",
  );
  const { status, stderr } = check();
  expect(status).toBe(1);
  expect(stderr).toContain(
    'libs/contracts imports another lib (a): libs/contracts/src/index.ts -> libs/a/src/index.ts',
  );
});
