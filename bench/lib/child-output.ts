// Waiting for a child process to announce itself on its output: the stack launcher's "Tessera is
// serving…" line, the bare relay's "ready <port>".
import type { ChildProcess } from 'node:child_process';

/** The output kept for error reports: its last this many characters. */
export const KEPT_CHARS = 8000;

export class ChildOutputError extends Error {
  override readonly name = 'ChildOutputError';

  constructor(
    message: string,
    /** What the child printed so far (the tail). */
    readonly output: string,
  ) {
    super(message);
  }
}

/**
 * Resolves with the first match of `pattern` in the child's stdout and stderr, and the output so
 * far. Rejects with a ChildOutputError if the child exits first or `timeoutMs` passes; the
 * caller decides what to do with the child then.
 */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
): Promise<{ match: RegExpExecArray; output: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => settle(() => reject(new ChildOutputError(`was not ready in ${timeoutMs} ms`, output))),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-KEPT_CHARS);
      const match = pattern.exec(output);
      if (match) settle(() => resolve({ match, output }));
    };
    const onExit = (code: number | null, signal: string | null) =>
      settle(() =>
        reject(
          new ChildOutputError(`exited before it was ready (${signal ?? `code ${code}`})`, output),
        ),
      );
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      finish();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
