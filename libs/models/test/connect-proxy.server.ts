// A forward proxy on 127.0.0.1:0 that tunnels CONNECT requests (what undici's proxy agents
// send) and records where each tunnel went, for testing that pulls honour HTTP(S)_PROXY.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export class ConnectProxy {
  /** `host:port` of every tunnel opened, in order. */
  readonly tunnels: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ConnectProxy> {
    const server = createServer((_request, response) => response.writeHead(405).end());
    const proxy = new ConnectProxy(server);
    server.on('connect', (request, client: Socket, head: Buffer) => {
      const target = request.url ?? '';
      proxy.tunnels.push(target);
      const [host, port] = target.split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      for (const socket of [client, upstream]) {
        proxy.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          proxy.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
