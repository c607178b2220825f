// What `npm start` does, for real: the built launcher starts the embeddings service and the
// gateway as separate processes, traces leave every process over OTLP with one trace id, and
// SIGTERM lets in-flight requests finish before everything exits.
// Needs `npm run build` first (`npm test` does it).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import * as path from 'node:path';
import { fixturesModelsFile, repoRoot } from '@tessera/testing';
import OpenAI from 'openai';
import { freePort } from '../tools/stack/ports';

const LAUNCHER = path.join(repoRoot(), 'dist/tools/stack/start.js');
const KEY = 'tsk-launcher-test';

interface ExportedSpan {
  traceId: string;
  name: string;
}

let launcher: ChildProcess;
let receiver: Server;
const exported = new Map<string, ExportedSpan[]>(); // service.name → spans
let baseURL: string;
let output = '';

beforeAll(async () => {
  if (!fs.existsSync(LAUNCHER)) throw new Error(`${LAUNCHER} is missing: run npm run build`);
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      collectSpans(JSON.parse(body));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const otlpPort = (receiver.address() as { port: number }).port;
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}/v1`;
  launcher = spawn(process.execPath, [LAUNCHER, '--models', fixturesModelsFile()], {
    env: {
      ...process.env,
      PORT: String(port),
      TESSERA_API_KEYS: KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  launcher.stdout!.on('data', (chunk) => (output += chunk));
  launcher.stderr!.on('data', (chunk) => (output += chunk));
  await waitFor(() => output.includes(`Tessera is serving the OpenAI API at ${baseURL}`), 60_000);
}, 90_000);

afterAll(async () => {
  if (launcher && launcher.exitCode === null) launcher.kill('SIGKILL');
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

function collectSpans(payload: {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: ExportedSpan[] }>;
  }>;
}): void {
  for (const resourceSpans of payload.resourceSpans ?? []) {
    const service =
      resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value
        .stringValue ?? '?';
    const spans = (resourceSpans.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []);
    exported.set(service, [...(exported.get(service) ?? []), ...spans]);
  }
}

it('serves the fixture models through separate processes, traced across them', async () => {
  const client = new OpenAI({ apiKey: KEY, baseURL, maxRetries: 0 });
  const response = await client.embeddings.create({ model: 'tiny-bert', input: 'hello world' });
  expect(response.data[0].embedding).toHaveLength(32);

  await waitFor(
    () =>
      (exported.get('tessera-embeddings') ?? []).some((s) => s.name === 'onnxruntime.run') &&
      (exported.get('tessera-gateway') ?? []).some((s) => s.name === 'POST /v1/embeddings'),
  );
  const gatewaySpans = exported.get('tessera-gateway') ?? [];
  const request = gatewaySpans.find((s) => s.name === 'POST /v1/embeddings');
  expect(request).toBeDefined();
  const serviceSpans = exported.get('tessera-embeddings') ?? [];
  expect(serviceSpans.filter((s) => s.traceId === request!.traceId).map((s) => s.name)).toEqual(
    expect.arrayContaining(['tessera.v1.Embeddings/Embed', 'onnxruntime.run']),
  );
});

it('finishes in-flight requests on SIGTERM, then exits cleanly', async () => {
  const input = Array.from({ length: 300 }, (_, i) => `sentence ${i} with a few more words`);
  // Each on its own connection: an idle pooled keep-alive socket may rightly be closed at
  // shutdown, but a request the gateway has received must be answered.
  const requests = Array.from({ length: 8 }, () =>
    postOnNewConnection(`${baseURL}/embeddings`, { model: 'tiny-bert', input }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const exited = new Promise<number | null>((resolve) => launcher.once('exit', resolve));
  launcher.kill('SIGTERM');
  expect(await Promise.all(requests)).toEqual(Array(8).fill(200));
  expect(await exited).toBe(0);
}, 60_000);

function postOnNewConnection(url: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; launcher output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
