// A real HTTP server that image-fetch tests point image URLs at: a real png, the same bytes
// under a wrong Content-Type, an HTML page, a 404, redirects (to a given URL, or an endless
// chain), a body larger than a cap with and without Content-Length, and a server that never
// answers. It counts the requests each path got, so a test can prove one was never made.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ImageServer {
  /** http://host:port + path */
  url(path: string): string;
  port: number;
  png: Buffer;
  /** Requests per path (without the query). */
  hits: Map<string, number>;
  /** Paths whose response the client dropped before it was complete. */
  abandoned: Set<string>;
  /** The most requests that were in flight at once. */
  peakInFlight(): number;
  close(): Promise<void>;
}

/** A real 16×16 png, encoded by libvips (loaded here only: most tests never need it). */
export async function testPng(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#3070c0' } })
    .png()
    .toBuffer();
}

export async function startImageServer(host = '127.0.0.1'): Promise<ImageServer> {
  const png = await testPng();
  const hits = new Map<string, number>();
  const abandoned = new Set<string>();
  const sockets = new Set<import('node:net').Socket>();
  let inFlight = 0;
  let peak = 0;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://test');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    peak = Math.max(peak, ++inFlight);
    response.on('close', () => {
      inFlight -= 1;
      if (!response.writableFinished) abandoned.add(url.pathname);
    });
    const send = (status: number, type: string, body: Buffer | string) =>
      response.writeHead(status, { 'content-type': type }).end(body);
    switch (url.pathname) {
      case '/image.png':
        return send(200, 'image/png', png);
      case '/image-as-html':
        return send(200, 'text/html; charset=utf-8', png);
      case '/page.html':
        return send(200, 'text/html', '<html><body>not an image</body></html>');
      case '/not-a-format':
        return send(200, 'image/bmp', Buffer.from('BM6\x00\x00\x00\x00\x00', 'latin1'));
      case '/redirect':
        return response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      case '/big': {
        // Content-Length says it all: refused from the headers.
        const size = Number(url.searchParams.get('bytes') ?? 1e6);
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': size });
        return response.end(Buffer.concat([png, Buffer.alloc(size - png.length)]));
      }
      case '/endless': {
        // No Content-Length: chunks until the client lets go (or 64 MiB).
        response.writeHead(200, { 'content-type': 'image/png' });
        response.write(png);
        let sent = 0;
        const chunk = Buffer.alloc(16 * 1024);
        const more = () => {
          while (!response.destroyed && sent < 64 * 1024 * 1024) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', more);
          }
          response.end();
        };
        return more();
      }
      case '/slow':
        return void setTimeout(() => send(200, 'image/png', png), 100);
      case '/silent':
        return; // never answers
      default:
        if (url.pathname.startsWith('/loop/')) {
          const step = Number(url.pathname.slice('/loop/'.length));
          return response.writeHead(302, { location: `/loop/${step + 1}` }).end();
        }
        return send(404, 'text/plain', 'not found');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: (path) => `http://${shownHost}:${port}${path}`,
    port,
    png,
    hits,
    abandoned,
    peakInFlight: () => peak,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
