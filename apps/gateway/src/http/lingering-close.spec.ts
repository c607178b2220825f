import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerLingeringClose } from './lingering-close';

const HEAD = 'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: audio/wav\r\n';

let server: Server;
/** The refusals sent, in order (to wait for the last one). */
let answered: Promise<ServerResponse>;

// Refuses as the gateway does: on the body's first bytes, before the rest of it, with
// `connection: close` (writeHead's headers, as Fastify sends them).
async function refusingServer(lingerMs: number): Promise<void> {
  let answer!: (response: ServerResponse) => void;
  answered = new Promise((resolve) => (answer = resolve));
  server = createServer((request, response) => {
    request.once('data', () => {
      request.pause();
      response.writeHead(404, { 'content-type': 'application/json', connection: 'close' });
      response.end('{"error":{"message":"no such model"}}', () => answer(response));
    });
  });
  registerLingeringClose(server, lingerMs);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}

/** A client that sends a head announcing `length` bytes and the first 16 KiB of them. */
function startUpload(length: number): { socket: Socket; outcome: Promise<[string, string]> } {
  const { port } = server.address() as AddressInfo;
  // Half-open, as a client still sending is: the server's FIN does not end its side.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.pause(); // reads nothing yet: the answer waits in the kernel, as while a client writes
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const outcome = new Promise<[string, string]>((resolve) => {
    socket.once('error', (error: NodeJS.ErrnoException) => resolve([received, error.code ?? '']));
    socket.once('close', () => resolve([received, '']));
  });
  socket.write(`${HEAD}content-length: ${length}\r\n\r\n`);
  socket.write(Buffer.alloc(16 * 1024));
  return { socket, outcome };
}

afterEach(() => new Promise((resolve) => server.close(resolve)));

describe('registerLingeringClose', () => {
  it('keeps reading an upload refused midway, so its client still reads the answer', async () => {
    await refusingServer(60_000);
    const { socket, outcome } = startUpload(1_000_000);
    await answered;
    // Closed at once, the server's socket would be gone by now: its kernel answers the next
    // bytes with a reset, and the write after that fails (EPIPE), which fetch reports instead of
    // the answer it has not parsed yet.
    await sleep(100);
    socket.write(Buffer.alloc(64 * 1024));
    await sleep(100);
    socket.write(Buffer.alloc(64 * 1024));
    await sleep(100);
    socket.resume();
    socket.end();
    const [received, error] = await outcome;
    expect(error).toBe('');
    expect(received).toMatch(/^HTTP\/1\.1 404 [^]*\r\nconnection: close\r\n[^]*no such model/i);
  });

  it('cuts a client that goes on sending after the answer', async () => {
    await refusingServer(50);
    const { socket, outcome } = startUpload(100_000_000);
    socket.resume();
    const feed = setInterval(() => socket.write(Buffer.alloc(16 * 1024)), 5);
    const [received] = await outcome;
    clearInterval(feed);
    expect(received).toMatch(/^HTTP\/1\.1 404 /);
    expect(socket.destroyed).toBe(true);
  });

  it('leaves a kept-alive connection to Node, which reads the rest of the body itself', async () => {
    server = createServer((request, response) => {
      request.once('data', () => response.end('early'));
    });
    registerLingeringClose(server, 50);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const first = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: 'x'.repeat(100_000),
    });
    expect(await first.text()).toBe('early');
    expect(first.headers.get('connection')).not.toBe('close');
  });
});
