// The two-hop floor, run as its own processes by bench/embeddings/bare-relay.process.ts: the thinnest server
// with Tessera's shape. A bare node:http process relays each POST /v1/embeddings over bare
// grpc-js (default channel options, the same Embeddings contract) to a process that calls the
// same transformers.js pipeline as the reference, once per request. Nothing else: no auth,
// validation, batching, worker thread, tracing or metrics. What it adds to the direct loop's
// latency is what two process hops cost on this machine in this run, whatever server sits on
// them; the service's added latency is read against it.
//
//   node dist/bench/embeddings/bare-relay.server.js model <modelDir>   gRPC + pipeline; starts the http
//                                                           role as its child; prints "ready <port>"
//   node dist/bench/embeddings/bare-relay.server.js http <grpcTarget>  HTTP → gRPC; prints "ready <port>"
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import {
  loadService,
  type EmbedRequest,
  type EmbedRequest__Output,
  type EmbedResponse,
  type EmbedResponse__Output,
} from '@tessera/contracts';
import { ChildOutputError, waitForOutput } from '../lib/child-output';
import { loadDirectPipeline } from './direct-pipeline.reference';

const READY = /^ready (\d+)$/m;

async function serveModel(modelDir: string): Promise<void> {
  const pipeline = await loadDirectPipeline(modelDir);
  const server = new grpc.Server();
  server.addService(loadService('embeddings').service, {
    Embed: (
      call: grpc.ServerUnaryCall<EmbedRequest__Output, EmbedResponse>,
      callback: grpc.sendUnaryData<EmbedResponse>,
    ) => {
      const text = call.request.inputs[0]?.text ?? '';
      pipeline.embed(text).then((vector) => {
        const tokens = pipeline.countTokens(text);
        callback(null, {
          model: call.request.model,
          embeddings: [
            {
              data: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
              dimensions: vector.length,
            },
          ],
          usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens },
        });
      }, callback);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const http = fork(__filename, ['http', `127.0.0.1:${port}`], { stdio: 'pipe' });
  process.stdout.write(`ready ${await readyPort(http)}\n`);
  process.once('SIGTERM', () => {
    http.kill('SIGTERM');
    server.forceShutdown();
    process.exit(0);
  });
}

function serveHttp(grpcTarget: string): void {
  const Embeddings = loadService('embeddings');
  const client = new Embeddings(grpcTarget, grpc.credentials.createInsecure());
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        input: string;
      };
      const embed: EmbedRequest = { model: body.model, inputs: [{ text: body.input }] };
      client.Embed(embed, (error: grpc.ServiceError | null, reply?: EmbedResponse__Output) => {
        if (error || !reply) {
          response.writeHead(502).end(String(error));
          return;
        }
        const json = JSON.stringify({
          object: 'list',
          data: [
            {
              object: 'embedding',
              index: 0,
              embedding: reply.embeddings[0].data.toString('base64'),
            },
          ],
          model: reply.model,
          usage: reply.usage,
        });
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
  const [role, argument] = process.argv.slice(2);
  if (role === 'model' && argument) {
    serveModel(argument).catch((error: unknown) => {
      process.stderr.write(`bare relay (model): ${String(error)}\n`);
      process.exit(1);
    });
  } else if (role === 'http' && argument) {
    serveHttp(argument);
  } else {
    process.stderr.write('usage: bare-relay.server.js model <modelDir> | http <grpcTarget>\n');
    process.exit(2);
  }
}
