// The closed-loop driver against a real local HTTP server: how many requests it keeps in flight
// and what each trace records.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runClosedLoop } from './closed-loop.driver';
import { TracedHttpClient } from './traced-http.client';
import type { SendRequest } from './load-run.result';

/**
 * A server that counts requests in flight and answers each only once `hold()` allows it, so a
 * test decides when replies go out.
 */
class HoldingServer {
  inFlight = 0;
  maxInFlight = 0;
  private waiting: Array<() => void> = [];
  private readonly server: Server;

  constructor(private readonly hold: (server: HoldingServer) => boolean) {
    this.server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        this.waiting.push(() => {
          this.inFlight--;
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.end('data: {"ok":true}\n\ndata: [DONE]\n\n');
        });
        this.release();
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private release(): void {
    if (this.hold(this)) return;
    for (const answer of this.waiting.splice(0)) answer();
  }
}

describe('closed-loop driver', () => {
  let server: HoldingServer;
  let client: TracedHttpClient;

  afterEach(async () => {
    client.close();
    await server.close();
  });

  const post: SendRequest = async (index, recorder) => {
    await client.post('/', { index }, recorder);
  };

  it('closed loop: keeps exactly `concurrency` requests in flight and traces every one', async () => {
    // Replies go out only when three are waiting: a fourth in flight would be a driver bug,
    // fewer than three would stall the run.
    server = new HoldingServer((s) => s.inFlight < 3);
    client = new TracedHttpClient(await server.listen(), {}, 8);
    const result = await runClosedLoop({ concurrency: 3, requests: 12, send: post });
    expect(server.maxInFlight).toBe(3);
    expect(result).toMatchObject({ concurrency: 3, completed: 12, failed: 0 });
    expect(result.traces.map((t) => t.index).sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    for (const trace of result.traces) {
      expect(trace.scheduledMs).toBe(trace.startMs);
      expect(trace.eventMs).toHaveLength(2);
      expect(trace.endMs).toBeGreaterThanOrEqual(trace.eventMs[1]);
    }
    expect(result.latenciesMs).toHaveLength(12);
  });

  it('closed loop: counts a failed request and keeps its trace and message', async () => {
    server = new HoldingServer(() => false);
    client = new TracedHttpClient(await server.listen(), {}, 2);
    const result = await runClosedLoop({
      concurrency: 2,
      requests: 6,
      send: async (index, recorder) => {
        if (index === 4) throw new Error('refused: 4');
        await post(index, recorder);
      },
    });
    expect(result).toMatchObject({ completed: 5, failed: 1, firstError: 'refused: 4' });
    expect(result.traces.find((t) => t.index === 4)?.error).toBe('refused: 4');
    expect(result.latenciesMs).toHaveLength(5);
  });
});
