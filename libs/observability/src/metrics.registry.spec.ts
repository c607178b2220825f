// createMetricsRegistry in a process of its own (built by `npm test`'s build: dist/): the
// default process metrics are there, event-loop lag included, and an idle process is not woken
// 100 times a second to sample it (prom-client's default), which takes CPU from model runs.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';

const built = path.join(repoRoot(), 'dist/libs/observability/src/metrics.registry.js');

/** Wake-ups of the main thread: its voluntary context switches, from /proc. */
const program = `
  const { readFileSync } = require('node:fs');
  const { createMetricsRegistry } = require(${JSON.stringify(built)});
  const registry = createMetricsRegistry({ app: 'probe' });
  const wakeUps = () => Number(/^voluntary_ctxt_switches:\\s+(\\d+)/m.exec(readFileSync('/proc/thread-self/status', 'utf8'))[1]);
  setTimeout(() => {
    const before = wakeUps();
    setTimeout(async () => {
      const woken = wakeUps() - before;
      console.log(JSON.stringify({ woken, metrics: await registry.metrics() }));
    }, 2000);
  }, 500);
`;

function idleProcess(): Promise<{ woken: number; metrics: string }> {
  const child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`exited ${code}`)),
    ),
  );
}

it('exposes event-loop lag with its labels, and leaves an idle process asleep', async () => {
  const { woken, metrics } = await idleProcess();
  expect(metrics).toMatch(/^nodejs_eventloop_lag_p99_seconds\{app="probe"\} \d/m);
  expect(metrics).toMatch(/^process_cpu_seconds_total\{app="probe"\} \d/m);
  // 2 s idle: ~20 wake-ups at one sample per 100 ms, ~200 at prom-client's 10 ms.
  expect(woken).toBeLessThan(60);
});
