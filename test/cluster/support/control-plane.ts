// Starts and stops the test control plane (tools/k8s/control-plane/run.sh) from jest. The script
// owns the processes and stops them on SIGTERM, or by itself if this process dies first.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const script = resolve(__dirname, '../../../tools/k8s/control-plane/run.sh');

export interface ControlPlane {
  kubeconfig: string;
  startedInMs: number;
  stop(): Promise<void>;
}

export async function startControlPlane(timeoutMs = 180_000): Promise<ControlPlane> {
  const started = Date.now();
  // Its own process group, so a stop that has to force it can take every child with it.
  const child = spawn('bash', [script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };

  const ready = new Promise<string>((resolveReady, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('ready ')) resolveReady(line.slice('ready '.length));
    });
    exited.then(([code]) => reject(new Error(`control plane exited (${code}) before ready`)));
  });
  ready.catch(() => undefined); // a rejection after the race is settled is no news
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`control plane not ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const kubeconfig = await Promise.race([ready, timeout]);
    return { kubeconfig, startedInMs: Date.now() - started, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
