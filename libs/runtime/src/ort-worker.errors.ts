// Errors callers may want to tell apart (e.g. map a crash or shutdown to 503, not 500).

/** A worker thread died (native crash, out of memory, terminated) while running a job. */
export class OrtWorkerCrashError extends Error {
  override readonly name = 'OrtWorkerCrashError';
}

/** The pool was closed, or every worker died and none could be restarted. */
export class OrtWorkerPoolUnavailableError extends Error {
  override readonly name = 'OrtWorkerPoolUnavailableError';
}
