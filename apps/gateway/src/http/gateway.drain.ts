// How the gateway stops (SIGTERM, or app.close()): before the HTTP server closes, it drains.
// While draining it keeps listening and accepting connections, answers every new request 503
// `server_shutting_down` with Retry-After and `Connection: close` (gateway.hooks.ts), and waits
// for the requests it holds. When TESSERA_DRAIN_TIMEOUT_MS is up, each request still running is
// ended the way its answer allows (request-scope signal, aborted with the 503): one not yet
// answered gets the 503, a server-sent event stream its `error` event and a complete body, raw
// audio an aborted body (no client may take a cut-short file for a whole one). Only then does the
// server close, so no client meets a refused connection while the process still runs.
import type { ServerResponse } from 'node:http';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@tessera/config';
import { OpenAIError } from '../errors/openai-error';
import { GATEWAY_CONFIG } from '../gateway.injection';

/** How long the requests ended at the drain timeout get to write their last bytes. */
export const END_GRACE_MS = 2_000;

@Injectable()
export class GatewayDrain implements BeforeApplicationShutdown {
  /** Requests admitted before the drain began, until their response closes. */
  private readonly held = new Map<ServerResponse, AbortController>();
  private draining = false;
  private ended = false;
  private settled: (() => void) | null = null;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  get isDraining(): boolean {
    return this.draining;
  }

  /** Holds a request admitted before the drain (from its first hook on) until it is answered. */
  admit(response: ServerResponse): void {
    this.held.set(response, new AbortController());
    response.once('close', () => {
      this.held.delete(response);
      if (this.held.size === 0) this.settled?.();
    });
  }

  /**
   * The request's signal, for its handler: aborts when `gone` does (the client went away) or,
   * with the 503 as its reason, when the drain time is up.
   */
  signal(response: ServerResponse, gone: AbortSignal): AbortSignal {
    // Its answer ends the connection: the server is about to close.
    if (this.draining) response.shouldKeepAlive = false;
    const stop = this.held.get(response) ?? new AbortController();
    if (this.ended && !stop.signal.aborted) stop.abort(OpenAIError.endedByShutdown());
    if (gone.aborted) stop.abort(gone.reason);
    else gone.addEventListener('abort', () => stop.abort(gone.reason), { once: true });
    return stop.signal;
  }

  /** Nest runs this before the HTTP server closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.draining = true;
    // Answers still to come end their connection: the client opens its next one elsewhere.
    for (const response of this.held.keys()) {
      if (!response.headersSent) response.shouldKeepAlive = false;
    }
    if (await this.allSettled(this.config.drainTimeoutMs)) return;
    this.ended = true;
    const reason = OpenAIError.endedByShutdown();
    for (const stop of this.held.values()) stop.abort(reason);
    await this.allSettled(END_GRACE_MS);
  }

  /** True once nothing is held; false when `timeoutMs` (undefined: none) passes first. */
  private allSettled(timeoutMs: number | undefined): Promise<boolean> {
    if (this.held.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(() => finish(false), timeoutMs);
      const finish = (settled: boolean) => {
        clearTimeout(timer);
        this.settled = null;
        resolve(settled);
      };
      this.settled = () => finish(true);
    });
  }
}
