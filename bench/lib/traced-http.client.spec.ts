// The traced client against a real local HTTP server: server-sent events are recorded as they
// arrive (not when the reply ends), however the bytes are split, and plain replies keep their body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { interEventMs, RequestRecorder, timeToFirstEventMs } from './request.trace';
import { TracedHttpClient } from './traced-http.client';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function listen(handler: Handler): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Resolves once `check` holds, polling; for watching a reply that is still streaming. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('TracedHttpClient', () => {
  let server: Server;
  let client: TracedHttpClient;
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  afterEach(async () => {
    client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('records each server-sent event when it arrives, before the next one is sent', async () => {
    const chunks = ['{"n":0}', '{"n":1}', '{"n":2}', '[DONE]'];
    // The server sends the next event only when the test releases it, after seeing the
    // previous one recorded: the timestamps must fall between the releases.
    const releases: Array<() => void> = [];
    const received: string[] = [];
    server = await listen((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', async () => {
        received.push(`${request.url} ${request.headers.authorization} ${body}`);
        response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        response.flushHeaders(); // the first byte, before any event
        for (const data of chunks) {
          await new Promise<void>((resolve) => releases.push(resolve));
          response.write(`data: ${data}\n\n`);
        }
        response.end();
      });
    });
    // A trailing slash on the base URL and a leading one on the path make one slash.
    client = new TracedHttpClient(`${origin()}/v1/`, { authorization: 'Bearer k' }, 1);

    const recorder = new RequestRecorder(7);
    const reply = client.post('/chat/completions', { stream: true }, recorder);
    // The headers come first: the first byte is recorded before any event is sent.
    await until(() => recorder.firstByteMs !== undefined);
    const releasedAt: number[] = [];
    for (let i = 0; i < chunks.length; i++) {
      await until(() => releases.length > i);
      expect(recorder.eventCount).toBe(i);
      releasedAt.push(performance.now());
      releases[i]();
      await until(() => recorder.eventCount === i + 1);
    }
    const response = await reply;
    const trace = recorder.finish();

    expect(received).toEqual(['/v1/chat/completions Bearer k {"stream":true}']);
    expect(response).toEqual({ status: 200, body: '', events: chunks });
    expect(trace.index).toBe(7);
    expect(trace.error).toBeUndefined();
    expect(trace.eventMs).toHaveLength(chunks.length);
    expect(trace.firstByteMs).toBeGreaterThanOrEqual(trace.startMs);
    expect(trace.firstByteMs).toBeLessThanOrEqual(releasedAt[0]);
    for (let i = 0; i < chunks.length; i++) {
      expect(trace.eventMs[i]).toBeGreaterThan(releasedAt[i]);
      if (i + 1 < chunks.length) expect(trace.eventMs[i]).toBeLessThan(releasedAt[i + 1]);
    }
    expect(trace.endMs).toBeGreaterThanOrEqual(trace.eventMs[chunks.length - 1]);
    expect(timeToFirstEventMs(trace)).toBe(trace.eventMs[0] - trace.startMs);
    expect(interEventMs(trace)).toEqual([
      trace.eventMs[1] - trace.eventMs[0],
      trace.eventMs[2] - trace.eventMs[1],
      trace.eventMs[3] - trace.eventMs[2],
    ]);
  });

  it('counts an event once however its bytes are split, including multi-byte characters', async () => {
    const euro = Buffer.from('data: {"s":"€"}\n\n', 'utf8');
    const cut = euro.indexOf(0xe2) + 1; // inside the three bytes of '€'
    server = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const parts = [
        Buffer.from(': a comment, not an event\n\nda'),
        Buffer.from('ta: {"a":1}\r\n'),
        Buffer.from('\r\n'),
        euro.subarray(0, cut),
        euro.subarray(cut),
        Buffer.from('data: [DONE]\n\n'),
      ];
      const next = () => {
        const part = parts.shift();
        if (!part) return void response.end();
        response.write(part);
        setTimeout(next, 5);
      };
      next();
    });
    client = new TracedHttpClient(origin(), {}, 1);
    const recorder = new RequestRecorder(0);
    const response = await client.post('events', {}, recorder);
    expect(response.events).toEqual(['{"a":1}', '{"s":"€"}', '[DONE]']);
    expect(recorder.finish().eventMs).toHaveLength(3);
  });

  it('returns a plain reply whole, with its first byte and no events', async () => {
    server = await listen((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"bad"}}');
    });
    client = new TracedHttpClient(`${origin()}/v1`, {}, 1);
    const recorder = new RequestRecorder(0);
    const response = await client.post('embeddings', { input: 'x' }, recorder);
    const trace = recorder.finish();
    expect(response).toEqual({ status: 400, body: '{"error":{"message":"bad"}}', events: [] });
    expect(trace.firstByteMs).toBeGreaterThanOrEqual(trace.startMs);
    expect(trace.eventMs).toEqual([]);
    expect(timeToFirstEventMs(trace)).toBeUndefined();
  });
});
