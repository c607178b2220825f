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

/** The helper's whole program (plain JavaScript run with `node -e`, so no build step). */
const HELPER_SOURCE = `
'use strict';
const { spawn } = require('node:child_process');
const TAIL = 2048;
const children = new Map();
// With a callback, a message the closing channel cannot take is dropped, not an 'error' event.
const tell = (message) => { if (process.connected) process.send(message, () => undefined); };
process.on('message', (m) => {
  if (m.op === 'spawn') {
    let stderr = '';
    let reported = false;
    const report = (message) => { if (!reported) { reported = true; children.delete(m.id); tell(message); } };
    const child = spawn(m.file, m.args, { stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    children.set(m.id, child);
    tell({ op: 'spawned', id: m.id, pid: child.pid });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => { stderr = (stderr + text).slice(-TAIL); });
    child.once('error', (error) => report({ op: 'exit', id: m.id, code: null, signal: null, stderr, error: error.message }));
    child.once('close', (code, signal) => report({ op: 'exit', id: m.id, code, signal, stderr }));
  } else if (m.op === 'kill') {
    children.get(m.id)?.kill('SIGKILL');
  }
});
// The service is gone (or let us go): no child outlives it.
process.on('disconnect', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
`;

/** How long close() lets the helper exit by itself before killing it. */
const CLOSE_GRACE_MS = 2000;

export interface HelperExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The end of what the child wrote to stderr. */
  readonly stderr: string;
  /** Set when the child could not be started (ENOENT, EACCES...). */
  readonly error?: string;
}

type HelperMessage =
  (HelperExit & { op: 'exit'; id: number }) | { op: 'spawned'; id: number; pid?: number };

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
    helper.send({ op: 'spawn', id, file, args });
    let done = false;
    void exited.then(() => (done = true));
    return {
      pid,
      exited,
      kill: () => {
        if (!done && this.helper === helper && helper.connected) helper.send({ op: 'kill', id });
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
    // `node -e`: none of the service's own flags (--inspect, a heap size, a loader) carry over.
    const helper: ChildProcess = spawn(process.execPath, ['-e', HELPER_SOURCE], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      windowsHide: true,
    });
    this.helper = helper;
    helper.on('message', (message: HelperMessage) => {
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

let shared: SpawnHelper | undefined;

/** This process's helper, started on first use. */
export function spawnHelper(): SpawnHelper {
  shared ??= new SpawnHelper();
  return shared;
}
