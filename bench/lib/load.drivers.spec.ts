// The closed- and open-loop drivers against a real local HTTP server: how many requests each
// keeps in flight, what each trace records, and the open loop's arrival schedules.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runClosedLoop } from './closed-loop.driver';
import { arrivalOffsetsMs, runOpenLoop } from './open-loop.driver';
import { TracedHttpClient } from './traced-http.client';
import { mean } from './latency.stats';
import type { SendRequest } from './load-run.result';
import { latencyMs, responseTimeMs } from './request.trace';

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

describe('load drivers', () => {
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

  it('open loop: sends on schedule without waiting for replies', async () => {
    // No reply goes out until all ten requests have arrived: a driver that waited for replies
    // before sending more would never finish.
    server = new HoldingServer((s) => s.inFlight < 10);
    client = new TracedHttpClient(await server.listen(), {}, 16);
    const result = await runOpenLoop({
      ratePerSec: 500,
      requests: 10,
      arrivals: 'constant',
      send: post,
    });
    expect(result).toMatchObject({ completed: 10, failed: 0, maxInFlight: 10 });
    expect(server.maxInFlight).toBe(10);
    const byIndex = [...result.traces].sort((a, b) => a.index - b.index);
    for (const [i, trace] of byIndex.entries()) {
      // Due every 2 ms from the first; never sent before it is due.
      expect(trace.scheduledMs - byIndex[0].scheduledMs).toBeCloseTo(2 * i, 6);
      expect(trace.startMs).toBeGreaterThanOrEqual(trace.scheduledMs);
      // Counted from when it was due, a late send's wait is part of its response time.
      expect(responseTimeMs(trace)).toBeCloseTo(
        latencyMs(trace) + trace.startMs - trace.scheduledMs,
        6,
      );
    }
  });

  it('arrival schedules: constant spacing, and seeded Poisson gaps with the asked mean', () => {
    expect(arrivalOffsetsMs({ ratePerSec: 4, requests: 4, arrivals: 'constant' })).toEqual([
      0, 250, 500, 750,
    ]);
    const plan = { ratePerSec: 50, requests: 5000, arrivals: 'poisson' as const, seed: 7 };
    const offsets = arrivalOffsetsMs(plan);
    expect(arrivalOffsetsMs(plan)).toEqual(offsets);
    expect(arrivalOffsetsMs({ ...plan, seed: 8 })).not.toEqual(offsets);
    const gaps = offsets.slice(1).map((at, i) => at - offsets[i]);
    expect(gaps.every((gap) => gap >= 0)).toBe(true);
    // Exponential gaps: mean 1/rate (20 ms) and a standard deviation as large as the mean.
    const meanGap = mean(gaps);
    expect(meanGap).toBeGreaterThan(19);
    expect(meanGap).toBeLessThan(21);
    const sd = Math.sqrt(mean(gaps.map((gap) => (gap - meanGap) ** 2)));
    expect(sd).toBeGreaterThan(18);
    expect(sd).toBeLessThan(22);
  });
});
