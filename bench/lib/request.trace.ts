// What one request did on the wire, as the load driver records it: when it was sent, when the
// first byte of the reply arrived, when each server-sent event arrived, and when it ended. Unary
// benchmarks read the latency; streaming ones (chat, speech, transcription) get time to first
// token and inter-token latency from the same record.

export interface RequestTrace {
  /** 0-based, in issue order. */
  readonly index: number;
  /** When the driver meant to send it: the closed loop sends each when it is due, so = startMs. */
  readonly scheduledMs: number;
  readonly startMs: number;
  /** The first byte of the response (headers included); absent for in-process calls. */
  readonly firstByteMs?: number;
  /** Arrival of each server-sent event (each `data:` event, `[DONE]` included). */
  readonly eventMs: readonly number[];
  readonly endMs: number;
  /** Set when the request failed; the other times still say how far it got. */
  readonly error?: string;
}

/** The trace of a request in flight: the transport calls `firstByte` and `event` as they happen. */
export class RequestRecorder {
  private readonly events: number[] = [];
  private firstByteAt?: number;

  readonly startMs = performance.now();
  /** When it was due: the closed loop sends each request when it is due. */
  readonly scheduledMs = this.startMs;

  constructor(readonly index: number) {}

  /** Idempotent: only the first call counts. */
  firstByte(): void {
    this.firstByteAt ??= performance.now();
  }

  /** One server-sent event arrived (it is also a byte, if none came before). */
  event(): void {
    const now = performance.now();
    this.firstByteAt ??= now;
    this.events.push(now);
  }

  /** The first byte's time, once it came (for watching a reply while it runs). */
  get firstByteMs(): number | undefined {
    return this.firstByteAt;
  }

  /** Events so far (for watching a stream while it runs). */
  get eventCount(): number {
    return this.events.length;
  }

  finish(error?: unknown): RequestTrace {
    return {
      index: this.index,
      scheduledMs: this.scheduledMs,
      startMs: this.startMs,
      ...(this.firstByteAt !== undefined && { firstByteMs: this.firstByteAt }),
      eventMs: [...this.events],
      endMs: performance.now(),
      ...(error !== undefined && {
        error: error instanceof Error ? error.message : String(error),
      }),
    };
  }
}

/** Sent → ended. */
export function latencyMs(trace: RequestTrace): number {
  return trace.endMs - trace.startMs;
}

/** Sent → first event (time to first token for a token stream); undefined without events. */
export function timeToFirstEventMs(trace: RequestTrace): number | undefined {
  return trace.eventMs.length > 0 ? trace.eventMs[0] - trace.startMs : undefined;
}

/** Gaps between consecutive events (inter-token latency for a token stream). */
export function interEventMs(trace: RequestTrace): number[] {
  return trace.eventMs.slice(1).map((at, i) => at - trace.eventMs[i]);
}
