// Child processes started off the event loop. spawn() forks the calling process, and a fork
// copies the page tables of everything mapped: in a service holding ONNX models (hundreds of MB)
// that holds the event loop for 15–80 ms per child (docs/benchmarks.md, speech; measured again
// for the decoder in docs/transcription.md). A worker thread does not avoid it (the fork still
// copies the whole process, and stalls the main thread too); a small long-lived helper process
// does: it is forked once, has a ~40 MB footprint, and forks the children instead, on its own
// event loop. It only starts them, reports their exit (with the end of their stderr), and kills
// them on request; their output reaches the caller by a path of their own (the decoder has
// ffmpeg write to a Unix socket it listens on), never through the helper.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HelperExit, HelperReport, HelperRequest } from './spawn-helper.protocol';

export type { HelperExit } from './spawn-helper.protocol';

/** How long close() lets the helper exit by itself before killing it. */
const CLOSE_GRACE_MS = 2000;

export interface HelperChild {
  /** Its process id once started; undefined when it could not start. Never rejects. */
  readonly pid: Promise<number | undefined>;
  /** Resolves once the child has exited (or could not start); never rejects. */
  readonly exited: Promise<HelperExit>;
  /** SIGKILLs it (nothing once it has exited). */
  kill(): void;
}

/** One helper process; spawn() starts it on first use and again if it died. */
export class SpawnHelper {
  private helper?: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, (exit: HelperExit) => void>();
  private readonly starting = new Map<number, (pid: number | undefined) => void>();

  /** Starts `file args` in the helper; its stdin and stdout are /dev/null. */
  spawn(file: string, args: readonly string[]): HelperChild {
    const helper = this.running();
    const id = this.nextId++;
    const exited = new Promise<HelperExit>((resolve) => this.pending.set(id, resolve));
    const pid = new Promise<number | undefined>((resolve) => this.starting.set(id, resolve));
    // Gone before it was reported started (the helper died): it has no pid.
    void exited.then(() => this.started(id, undefined));
    if (this.pending.size === 1) this.setRef(helper, true);
    helper.send({ op: 'spawn', id, file, args } satisfies HelperRequest);
    let done = false;
    void exited.then(() => (done = true));
    return {
      pid,
      exited,
      kill: () => {
        if (done || this.helper !== helper || !helper.connected) return;
        helper.send({ op: 'kill', id } satisfies HelperRequest);
      },
    };
  }

  /**
   * Ends the helper (its children are killed) and resolves once it has exited, so that a
   * service that closes leaves no process behind; a later spawn() starts a new one.
   */
  async close(): Promise<void> {
    const helper = this.helper;
    this.helper = undefined;
    if (!helper || helper.exitCode !== null || helper.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => helper.once('exit', () => resolve()));
    if (helper.connected) helper.disconnect();
    else helper.kill('SIGKILL');
    // It exits at once on the disconnect; one that does not is not waited for past this.
    const timer = setTimeout(() => helper.kill('SIGKILL'), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  /**
   * Starts the helper now (a service calls this at start-up, so that its one fork of this
   * process happens before any request); spawn() does it otherwise.
   */
  start(): void {
    this.running();
  }

  private running(): ChildProcess {
    if (this.helper?.connected) return this.helper;
    // A plain `node`: none of the service's own flags (--inspect, a heap size, a loader) carry over.
    const { args, env } = helperProgram();
    const helper: ChildProcess = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      windowsHide: true,
    });
    this.helper = helper;
    helper.on('message', (message: HelperReport) => {
      if (message?.op === 'spawned') this.started(message.id, message.pid);
      if (message?.op !== 'exit') return;
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
      if (this.pending.size === 0 && this.helper === helper) this.setRef(helper, false);
    });
    const lost = (why: string): void => {
      if (this.helper === helper) this.helper = undefined;
      // Whatever it was running is gone with it (it kills its children on disconnect).
      for (const [id, resolve] of this.pending) {
        resolve({ code: null, signal: null, stderr: '', error: `the spawn helper ${why}` });
        this.pending.delete(id);
      }
    };
    helper.once('error', (error) => lost(`failed: ${error.message}`));
    helper.once('exit', (code, signal) => lost(`exited (${signal ?? code})`));
    this.setRef(helper, false);
    return helper;
  }

  private started(id: number, pid: number | undefined): void {
    this.starting.get(id)?.(pid);
    this.starting.delete(id);
  }

  /** Held (keeps the process alive) only while one of its children runs. */
  private setRef(helper: ChildProcess, ref: boolean): void {
    const channel = helper.channel as { ref?: () => void; unref?: () => void } | undefined;
    if (ref) {
      helper.ref();
      channel?.ref?.();
    } else {
      helper.unref();
      channel?.unref?.();
    }
  }
}

/**
 * How `node` runs spawn-helper.process: its compiled .js beside this file (dist/, the images), or
 * from TypeScript sources (jest/ts-jest, where no .js exists) its .ts through ts-node, transpile
 * only, which only exists in development and tests.
 */
function helperProgram(): { args: string[]; env?: NodeJS.ProcessEnv } {
  const compiled = join(__dirname, 'spawn-helper.process.js');
  if (existsSync(compiled)) return { args: [compiled] };
  const source = join(__dirname, 'spawn-helper.process.ts');
  return {
    args: ['--require', require.resolve('ts-node/register/transpile-only'), source],
    env: {
      ...process.env,
      // Plain CommonJS whatever tsconfig the working directory has, or none: the program imports
      // only Node's own modules.
      TS_NODE_SKIP_PROJECT: 'true',
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'commonjs', moduleResolution: 'node10' }),
      // ts-node would cache the compiler in the temporary directory, which is the service's own
      // (uploads are spooled there, and specs check that nothing is left behind).
      DISABLE_V8_COMPILE_CACHE: '1',
    },
  };
}

let shared: SpawnHelper | undefined;

/** This process's helper, started on first use. */
export function spawnHelper(): SpawnHelper {
  shared ??= new SpawnHelper();
  return shared;
}
