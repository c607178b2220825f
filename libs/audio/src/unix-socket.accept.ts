// ffmpeg's end of a stream as a Unix socket this process listens on (the encoder's input and
// output, the decoder's samples), in a private directory: ffmpeg connects once, so the first
// connection is taken and the server closes (libuv removes the socket file with it).
import * as net from 'node:net';

/**
 * Listens on `path` and hands on its first connection only. An error of the server is ignored
 * here (ffmpeg then cannot connect and its exit says so); a caller that wants it, and the
 * 'listening' event, adds its own listener.
 */
export function acceptOne(path: string, onSocket: (socket: net.Socket) => void): net.Server {
  let taken = false;
  const server = net.createServer((socket) => {
    if (taken) return void socket.destroy(); // only ffmpeg's own, first connection
    taken = true;
    server.close();
    socket.on('error', () => undefined); // a killed ffmpeg resets it; its exit says why
    onSocket(socket);
  });
  server.on('error', () => undefined);
  server.listen(path);
  return server;
}
