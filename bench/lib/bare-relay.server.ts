// The two-hop floor, run as its own processes by bare-relay.process.ts: the thinnest server with
// Tessera's shape. A bare node:http process relays each POST over bare grpc-js (default channel
// options, the capability's own contract) to a process that calls the same transformers.js
// pipeline as the benchmark's reference, once per request. Nothing else: no auth, validation,
// batching, worker thread, tracing or metrics. What it adds to the direct loop's latency is what
// two process hops cost on this machine in this run, whatever server sits on them; the service's
// added latency is read against it. What is particular to a capability (its gRPC method, the
// pipeline, the JSON shapes) comes from a handler module (bare-relay.handler.ts), e.g.
// bench/embeddings/embeddings.relay.ts.
//
//   node dist/bench/lib/bare-relay.server.js model <handler.js> <modelDir>   gRPC + pipeline; starts
//                                                   the http role as its child; prints "ready <port>"
//   node dist/bench/lib/bare-relay.server.js http <handler.js> <grpcTarget>  HTTP → gRPC; prints
//                                                   "ready <port>"
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { loadService } from '@tessera/contracts';
import type { RelayHandler } from './bare-relay.handler';
import { ChildOutputError, waitForOutput } from './child-output';

const READY = /^ready (\d+)$/m;

type UnaryCall = (
  request: unknown,
  callback: (error: grpc.ServiceError | null, reply?: unknown) => void,
) => void;

function loadHandler(modulePath: string): RelayHandler<unknown, unknown, unknown, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(modulePath) as {
    relayHandler?: RelayHandler<unknown, unknown, unknown, unknown>;
  };
  if (!loaded.relayHandler) throw new Error(`${modulePath} exports no relayHandler`);
  return loaded.relayHandler;
}

async function serveModel(handlerPath: string, modelDir: string): Promise<void> {
  const handler = loadHandler(handlerPath);
  const answer = await handler.serve(modelDir);
  const server = new grpc.Server();
  server.addService(loadService(handler.service).service, {
    [handler.method]: (
      call: grpc.ServerUnaryCall<unknown, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      answer(call.request).then((reply) => callback(null, reply), callback);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const http = fork(__filename, ['http', handlerPath, `127.0.0.1:${port}`], { stdio: 'pipe' });
  process.stdout.write(`ready ${await readyPort(http)}\n`);
  process.once('SIGTERM', () => {
    http.kill('SIGTERM');
    server.forceShutdown();
    process.exit(0);
  });
}

function serveHttp(handlerPath: string, grpcTarget: string): void {
  const handler = loadHandler(handlerPath);
  const Service = loadService(handler.service);
  const client = new Service(grpcTarget, grpc.credentials.createInsecure()) as unknown as Record<
    string,
    UnaryCall
  >;
  const call = client[handler.method].bind(client);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      call(handler.toRequest(body), (error, reply) => {
        if (error || !reply) {
          response.writeHead(502).end(String(error));
          return;
        }
        const json = JSON.stringify(handler.toJson(reply));
        response
          .writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(json),
          })
          .end(json);
      });
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
  });
  // The model process is the parent: when it goes, so does this one.
  process.once('disconnect', () => process.exit(0));
  process.once('SIGTERM', () => process.exit(0));
}

/**
 * Resolves with the port a relay process prints once it listens; rejects if it exits first or
 * takes longer than `timeoutMs` (it is killed then).
 */
export async function readyPort(child: ChildProcess, timeoutMs = 120_000): Promise<number> {
  try {
    const { match } = await waitForOutput(child, READY, timeoutMs);
    return Number(match[1]);
  } catch (error) {
    child.kill('SIGKILL');
    const output = error instanceof ChildOutputError ? error.output : '';
    throw new Error(
      `bare relay ${error instanceof Error ? error.message : String(error)}:\n${output}`,
      { cause: error },
    );
  }
}

if (require.main === module) {
  const [role, handlerPath, argument] = process.argv.slice(2);
  if (role === 'model' && handlerPath && argument) {
    serveModel(handlerPath, argument).catch((error: unknown) => {
      process.stderr.write(`bare relay (model): ${String(error)}\n`);
      process.exit(1);
    });
  } else if (role === 'http' && handlerPath && argument) {
    serveHttp(handlerPath, argument);
  } else {
    process.stderr.write(
      'usage: bare-relay.server.js model <handler.js> <modelDir> | http <handler.js> <grpcTarget>\n',
    );
    process.exit(2);
  }
}
