// The result of one run of a load driver: every request's trace, and the
// totals the reports read.
import type { DriverLoad } from './driver-load.monitor';
import { latencyMs, RequestRecorder, type RequestTrace } from './request.trace';

/** Sends request `index`, recording its events on `recorder`; settles when it is answered. */
export type SendRequest = (index: number, recorder: RequestRecorder) => Promise<void>;

export interface LoadRunResult extends DriverLoad {
  readonly completed: number;
  readonly failed: number;
  readonly firstError?: string;
  /** First send → last reply. */
  readonly elapsedMs: number;
  /** Every request, failed ones included, in completion order. */
  readonly traces: RequestTrace[];
  /** Sent → ended, of every completed request, in completion order. */
  readonly latenciesMs: number[];
}

/** Sends one request and keeps its trace, whether it succeeded or not. */
export async function tracedSend(
  send: SendRequest,
  index: number,
  traces: RequestTrace[],
): Promise<void> {
  const recorder = new RequestRecorder(index);
  try {
    await send(index, recorder);
    traces.push(recorder.finish());
  } catch (error) {
    traces.push(recorder.finish(error));
  }
}

export function loadRunResult(
  traces: RequestTrace[],
  elapsedMs: number,
  load: DriverLoad,
): LoadRunResult {
  const completed = traces.filter((t) => t.error === undefined);
  return {
    completed: completed.length,
    failed: traces.length - completed.length,
    firstError: traces.find((t) => t.error !== undefined)?.error,
    elapsedMs,
    traces,
    latenciesMs: completed.map(latencyMs),
    ...load,
  };
}
