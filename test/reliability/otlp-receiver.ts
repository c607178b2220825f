// A tiny OTLP/HTTP receiver: accepts every POST (traces from all the stack's processes) and
// keeps the raw bodies, so the leak check can search the spans exactly as they left the process
// (protobuf or JSON: either way a key would be in there as its bytes).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class OtlpReceiver {
  readonly bodies: Buffer[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const receiver: OtlpReceiver = new OtlpReceiver(
      createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          receiver.bodies.push(Buffer.concat(chunks));
          response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      }),
    );
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** The OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`); the exporter appends /v1/traces. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
