// The `fetch` that @huggingface/hub is given for one operation (reading a revision, or
// downloading one file). It adds what every Hub request needs (the token, a user agent, the
// proxy from the environment, cancellation by the caller and by the stall watchdog) and
// remembers the first failure it saw: @huggingface/hub turns failures into errors that drop the
// status headers (`X-Error-Code`) and, inside a Blob's stream, even the error object, while the
// messages Tessera prints are worked out from the response or network error itself.
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { StallWatchdog } from './stall.watchdog';

export interface HubFetchSettings {
  readonly token?: string;
  /** Proxies from HTTP_PROXY / HTTPS_PROXY / NO_PROXY; Node's own fetch ignores them. */
  readonly dispatcher: Dispatcher;
  /** Longest wait for an answer to each request. */
  readonly requestTimeoutMs: number;
}

export type HubFetchFailure =
  | { readonly kind: 'response'; readonly response: Response }
  | { readonly kind: 'network'; readonly error: unknown };

export class HubFetchSession {
  readonly watchdog: StallWatchdog;
  private failed: HubFetchFailure | undefined;

  constructor(
    private readonly settings: HubFetchSettings,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    this.watchdog = new StallWatchdog(settings.requestTimeoutMs);
  }

  /** The first request that got an error status or no response, if any. */
  get failure(): HubFetchFailure | undefined {
    return this.failed;
  }

  /** Why the caller aborted. */
  get callerReason(): unknown {
    return this.callerSignal?.reason;
  }

  /** Whether the caller aborted (rather than the watchdog giving up). */
  get abortedByCaller(): boolean {
    return this.callerSignal?.aborted === true && !this.watchdog.fired;
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // Each request gets the full time to answer; a body then has `stallTimeoutMs` per chunk.
    this.watchdog.progressed(this.settings.requestTimeoutMs);
    const headers = new Headers(init?.headers);
    headers.set('user-agent', 'tessera-models');
    // Set here rather than as @huggingface/hub's accessToken, which insists on the `hf_` prefix
    // that a mirror's tokens need not have. fetch drops it on redirects to another origin (CDN).
    if (this.settings.token !== undefined)
      headers.set('authorization', `Bearer ${this.settings.token}`);
    const signal =
      this.callerSignal === undefined
        ? this.watchdog.signal
        : AbortSignal.any([this.watchdog.signal, this.callerSignal]);
    let response: Response;
    try {
      response = (await undiciFetch(String(input instanceof Request ? input.url : input), {
        method: init?.method ?? 'GET',
        headers: Object.fromEntries(headers),
        redirect: 'follow',
        signal,
        dispatcher: this.settings.dispatcher,
      })) as unknown as Response;
    } catch (error) {
      this.failed ??= { kind: 'network', error };
      throw error;
    }
    if (!response.ok) this.failed ??= { kind: 'response', response };
    return response;
  };

  stop(): void {
    this.watchdog.stop();
  }
}
