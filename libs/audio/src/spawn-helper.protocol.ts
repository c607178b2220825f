// The messages between a service and its spawn helper process (spawn.helper.ts starts it,
// spawn-helper.process.ts is its program), over the IPC channel of `node`'s child process.

/** How a child of the helper ended. */
export interface HelperExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The end of what the child wrote to stderr. */
  readonly stderr: string;
  /** Set when the child could not be started (ENOENT, EACCES...). */
  readonly error?: string;
}

/** What the service asks of the helper; `id` is the service's name for the child. */
export type HelperRequest =
  | {
      readonly op: 'spawn';
      readonly id: number;
      readonly file: string;
      readonly args: readonly string[];
    }
  | { readonly op: 'kill'; readonly id: number };

/** What the helper reports of a child: started (no pid when it could not be), then ended. */
export type HelperReport =
  | { readonly op: 'spawned'; readonly id: number; readonly pid?: number }
  | (HelperExit & { readonly op: 'exit'; readonly id: number });
