// An answer sent before the request's body was read (a refusal: an unknown model, a second
// file, an upload over the limit) goes out with `connection: close`, so that Node does not read
// the rest of an upload however large. Closing the socket at once, with the client still
// sending, makes the kernel answer the bytes that follow with a reset: the client's next write
// fails (EPIPE), and undici's fetch (the OpenAI SDK's) then fails the request instead of
// returning the answer it has not parsed yet; Node 24's does so about every other time. So, as
// nginx's lingering_close: the answer and a FIN go out, what still arrives is read and dropped,
// and the socket closes when the client ends its side, or after LINGER_MS.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How long a refused upload may go on arriving after its answer. */
export const LINGER_MS = 2_000;

export function registerLingeringClose(server: Server, lingerMs = LINGER_MS): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    // Runs after Node's own 'finish' listener, which ends the socket of a last response.
    response.once('finish', () => {
      if (!request.complete) linger(request, lingerMs);
    });
  });
}

function linger(request: IncomingMessage, lingerMs: number): void {
  const socket = request.socket;
  // A last response's socket is ended, and destroyed once its side is flushed
  // (net.Socket#destroySoon): that pending destroy is what lingers instead. A kept-alive
  // connection has none (Node reads the rest of the body itself), nor one already closed.
  if (socket.destroyed || !socket.listeners('finish').includes(socket.destroy)) return;
  socket.removeListener('finish', socket.destroy);
  const close = () => {
    clearTimeout(cut);
    socket.destroy();
  };
  const cut = setTimeout(close, lingerMs);
  socket.once('end', close);
  socket.once('close', () => clearTimeout(cut));
  request.resume();
}
