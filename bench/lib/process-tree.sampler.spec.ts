// The sampler against real processes: a child that starts a grandchild, which burns CPU and
// listens on a port.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  listeningPorts,
  machineBusyMs,
  processTree,
  sampleProcessTree,
  stopSampling,
} from './process-tree.sampler';

// The grandchild spins until it has used 200 ms of CPU (however busy the machine), then listens
// on a free port and prints it.
const GRANDCHILD = `
  while (process.cpuUsage().user < 200000);
  const server = require('node:http').createServer();
  server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
  setInterval(() => {}, 1000);
`;
const CHILD = `
  const { spawn } = require('node:child_process');
  const grandchild = spawn(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}, 'grandchild-marker'], { stdio: ['ignore', 'inherit', 'inherit'] });
  process.on('SIGTERM', () => { grandchild.kill('SIGTERM'); process.exit(0); });
  setInterval(() => {}, 1000);
`;

describe('process-tree sampler', () => {
  let child: ChildProcess;

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    stopSampling();
  });

  it('finds a process and its descendants, with their CPU time, memory and ports', async () => {
    child = spawn(process.execPath, ['-e', CHILD, 'child-marker'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const port = Number(/port (\d+)/.exec(line.toString())?.[1]);
    const busyBefore = machineBusyMs();

    const samples = await sampleProcessTree(child.pid!, (commandLine) =>
      // The child's script holds the grandchild's arguments too: only the last one tells.
      commandLine.trim().endsWith('grandchild-marker') ? 'grandchild' : 'child',
    );
    expect(samples.map((s) => s.name).sort()).toEqual(['child', 'grandchild']);
    const grandchild = samples.find((s) => s.name === 'grandchild')!;
    expect(samples.find((s) => s.name === 'child')!.pid).toBe(child.pid);
    expect(grandchild.cpuMs).toBeGreaterThanOrEqual(190);
    for (const sample of samples) expect(sample.rssBytes).toBeGreaterThan(10 * 2 ** 20);
    expect(listeningPorts(grandchild.pid)).toEqual([port]);
    expect(listeningPorts(child.pid!)).toEqual([]);
    expect(await processTree(child.pid!)).toEqual(
      expect.arrayContaining([child.pid, grandchild.pid]),
    );
    expect(machineBusyMs()).toBeGreaterThanOrEqual(busyBefore);

    child.kill('SIGTERM');
    await once(child, 'exit');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await sampleProcessTree(child.pid!, () => 'gone')).toEqual([]);
  });
});
