// closeOnSignals in a process of its own (built by `npm test`'s build: dist/): SIGTERM closes the
// app once and exits 0, a failed close exits 1, and a second signal while draining does not cut
// the drain short.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';

const built = path.join(repoRoot(), 'dist/libs/observability/src/process.shutdown.js');

function served(closeMs: number, fail: boolean) {
  const program = `
    const { closeOnSignals } = require(${JSON.stringify(built)});
    closeOnSignals({ close: () => new Promise((resolve, reject) => {
      console.log('closing');
      setTimeout(() => ${fail ? "reject(new Error('boom'))" : 'resolve()'}, ${closeMs});
    }) });
    console.log('ready');
    setInterval(() => undefined, 1000);
  `;
  const child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', () => output.includes('ready') && resolve()),
  );
  return { child, exited, ready, output: () => output };
}

it('SIGTERM: closes once, then exits 0; a second SIGTERM while draining is ignored', async () => {
  const run = served(300, false);
  await run.ready;
  run.child.kill('SIGTERM');
  setTimeout(() => run.child.kill('SIGTERM'), 50);
  expect(await run.exited).toBe(0);
  expect(run.output().match(/closing/g)).toHaveLength(1);
});

it('a close that fails exits 1 with the reason', async () => {
  const run = served(10, true);
  await run.ready;
  run.child.kill('SIGINT');
  expect(await run.exited).toBe(1);
  expect(run.output()).toContain('shutdown failed: boom');
});
