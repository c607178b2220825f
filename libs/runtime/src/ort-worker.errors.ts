// Errors callers may want to tell apart: a closed or workerless pool is UNAVAILABLE to a gRPC
// caller (libs/service runtime-error.status.ts), a crash mid-job stays an internal error.

/** A worker thread died (native crash, out of memory, terminated) while running a job. */
export class OrtWorkerCrashError extends Error {
  override readonly name = 'OrtWorkerCrashError';
}

/** The pool was closed, or every worker died and none could be restarted. */
export class OrtWorkerPoolUnavailableError extends Error {
  override readonly name = 'OrtWorkerPoolUnavailableError';
}
