// The benchmarks' HTTP client: POSTs JSON over keep-alive connections and records on a
// RequestRecorder when the first byte of the reply arrives and when each server-sent event
// does, so every benchmark that drives a server over HTTP gets the same per-request events.
// node:http rather than fetch: the driver shares the machine with the server under test, so the
// client should cost as little CPU as possible.
import { Agent, request } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { RequestRecorder } from './request.trace';

export interface TracedResponse {
  readonly status: number;
  /** The whole body; empty for an event stream (see `events`). */
  readonly body: string;
  /** The data of each server-sent event, in order, when the reply was `text/event-stream`. */
  readonly events: string[];
}

export class TracedHttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly baseURL: string,
    private readonly headers: Record<string, string>,
    maxSockets: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  /** POST `json` to `path` (relative to the base URL); resolves when the reply has ended. */
  post(path: string, json: unknown, recorder: RequestRecorder): Promise<TracedResponse> {
    const url = new URL(`${this.baseURL.replace(/\/$/, '')}/${path.replace(/^\//, '')}`);
    const body = Buffer.from(JSON.stringify(json));
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            ...this.headers,
            'content-type': 'application/json',
            'content-length': body.length,
          },
        },
        (res) => {
          recorder.firstByte();
          const status = res.statusCode ?? 0;
          res.on('error', reject);
          if (/^text\/event-stream\b/.test(res.headers['content-type'] ?? '')) {
            const events: string[] = [];
            const parser = createParser({
              onEvent: (event) => {
                recorder.event();
                events.push(event.data);
              },
            });
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => parser.feed(chunk));
            res.on('end', () => resolve({ status, body: '', events }));
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status, body: Buffer.concat(chunks).toString('utf8'), events: [] }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
