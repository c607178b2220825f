// Starts a worker thread from a script that sits beside this file, whether the code runs
// compiled (dist/**/*.js) or from TypeScript sources under jest/ts-jest, where no .js exists.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * `basename` is the script's name without extension, e.g. `ort.worker`, in `dir` (this module's
 * by default; an engine passes its own `__dirname`). A compiled `.js` wins; otherwise the `.ts`
 * source is loaded through ts-node (transpile only) with the repository's path aliases, which
 * only exists in development and tests.
 */
export function launchWorkerScript(
  basename: string,
  options: WorkerOptions,
  dir: string = __dirname,
): Worker {
  const compiled = join(dir, `${basename}.js`);
  if (existsSync(compiled)) return new Worker(compiled, options);

  const source = join(dir, `${basename}.ts`);
  if (existsSync(source)) {
    return new Worker(typeScriptBootstrap(source), { ...options, eval: true });
  }
  throw new Error(`worker script ${basename} not found in ${dir} (neither .js nor .ts)`);
}

function typeScriptBootstrap(source: string): string {
  const tsconfig = findUp('tsconfig.json', dirname(source));
  // Resolved here, not in the worker: an eval'd worker resolves modules from the process's
  // working directory, which need not be the repository.
  const tsNode = require.resolve('ts-node');
  const tsconfigPaths = require.resolve('tsconfig-paths');
  const lines = [
    `require(${JSON.stringify(tsNode)}).register({`,
    `  transpileOnly: true,`,
    `  project: ${JSON.stringify(tsconfig)},`,
    `  compilerOptions: { module: 'commonjs' },`,
    `});`,
  ];
  if (tsconfig !== undefined) {
    lines.push(
      `const paths = require(${JSON.stringify(tsconfigPaths)});`,
      `const loaded = paths.loadConfig(${JSON.stringify(dirname(tsconfig))});`,
      `if (loaded.resultType === 'success') {`,
      `  paths.register({ baseUrl: loaded.absoluteBaseUrl, paths: loaded.paths });`,
      `}`,
    );
  }
  lines.push(`require(${JSON.stringify(source)});`);
  return lines.join('\n');
}

function findUp(file: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, file);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
