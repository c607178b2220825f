// Where the committed fixtures live, and models files made on the fly, for tests in any folder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root: the nearest folder above this file holding package.json. */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'proto'))) {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no repository root above ${__dirname}`);
  }
}

export function fixtureModelDir(name: string): string {
  return path.join(repoRoot(), 'test', 'fixtures', 'models', name);
}

export function fixturesModelsFile(): string {
  return path.join(repoRoot(), 'config', 'models.fixtures.yaml');
}

/** Writes a models file (YAML, one line per element) to a new temporary folder; returns its path. */
export function temporaryModelsFile(lines: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-models-'));
  const file = path.join(dir, 'models.yaml');
  fs.writeFileSync(file, [...lines, ''].join('\n'));
  return file;
}
