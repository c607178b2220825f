// The spawn helper's program, run by spawn.helper.ts as its own `node` process (never imported):
// it starts the children the service asks for, reports each one's start and its exit (with the
// end of its stderr), kills one on request, and kills them all once the service is gone. It
// imports only Node's own modules, so the process stays small (~40 MB).
import { spawn, type ChildProcess } from 'node:child_process';
import type { HelperExit, HelperReport, HelperRequest } from './spawn-helper.protocol';

/** How much of a child's stderr its exit report carries (the end: where the error is). */
const STDERR_TAIL_CHARS = 2048;

const children = new Map<number, ChildProcess>();

function tell(report: HelperReport): void {
  // With a callback, a message the closing channel cannot take is dropped, not an 'error' event.
  if (process.connected) process.send?.(report, undefined, undefined, () => undefined);
}

function start(id: number, file: string, args: readonly string[]): void {
  let stderr = '';
  let reported = false;
  const exited = (exit: HelperExit): void => {
    if (reported) return;
    reported = true;
    children.delete(id);
    tell({ op: 'exit', id, ...exit });
  };
  const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
  children.set(id, child);
  tell({ op: 'spawned', id, pid: child.pid });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
  });
  child.once('error', (error) =>
    exited({ code: null, signal: null, stderr, error: error.message }),
  );
  child.once('close', (code, signal) => exited({ code, signal, stderr }));
}

process.on('message', (request: HelperRequest) => {
  if (request.op === 'spawn') start(request.id, request.file, request.args);
  else if (request.op === 'kill') children.get(request.id)?.kill('SIGKILL');
});

// The service is gone (or let us go): no child outlives it.
process.on('disconnect', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
