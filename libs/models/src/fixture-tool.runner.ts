// Runs one command of the fixture tool (`bash run.sh <command> <outdir>`) for a registry build,
// line by line, and makes sure that however the build ends, its work directory does not outlive
// it half-written: an abort stops the converter and waits for it; a process exit (`npm start`
// stopping on Ctrl-C, process.exit) and a SIGINT/SIGTERM/SIGHUP nobody else handles kill the
// converter and remove the work directory before the process goes. A crash leaves the work
// directory behind, which the next build removes (registry-cache.layout.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { FIXTURE_TOOL_ENTRY } from './fixture-tool.locator';

export interface FixtureToolRunOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Removed if this process exits or is signalled while the command runs. */
  readonly workDir: string;
  readonly onLine: (line: string) => void;
  readonly signal?: AbortSignal;
}

export interface FixtureToolResult {
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Its last lines of output, for the error message when it failed. */
  readonly tail: readonly string[];
}

const TAIL_LINES = 15;
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function runFixtureTool(
  toolDir: string,
  args: readonly string[],
  options: FixtureToolRunOptions,
): Promise<FixtureToolResult> {
  options.signal?.throwIfAborted();
  const child = spawn('bash', [path.join(toolDir, FIXTURE_TOOL_ENTRY), ...args], {
    cwd: toolDir,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const collect = (line: string): void => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
    options.onLine(line);
  };
  createInterface({ input: child.stdout! }).on('line', collect);
  createInterface({ input: child.stderr! }).on('line', collect);

  const release = guardWorkDirectory(child, options.workDir);
  const stop = (): void => void child.kill('SIGTERM');
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
      (resolve, reject) => {
        child.once('error', reject);
        child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
      },
    );
    return { code, signal, tail };
  } finally {
    options.signal?.removeEventListener('abort', stop);
    release();
  }
}

/** Cleans up on the ways out that skip the caller's own error handling; returns the undo. */
function guardWorkDirectory(child: ChildProcess, workDir: string): () => void {
  const cleanUp = (): void => {
    child.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    cleanUp();
    release();
    // Then the signal's usual course: this process ends as it would have without us.
    process.kill(process.pid, signal);
  };
  // Only where no one else listens: a listener of our own would keep the process alive.
  const installed = FORWARDED_SIGNALS.filter((signal) => process.listenerCount(signal) === 0);
  for (const signal of installed) process.once(signal, onSignal);
  process.once('exit', cleanUp);
  const release = (): void => {
    for (const signal of installed) process.removeListener(signal, onSignal);
    process.removeListener('exit', cleanUp);
  };
  return release;
}
