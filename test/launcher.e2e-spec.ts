// What `npm run start:fixtures` does, for real: npm builds and then execs the launcher, which
// starts the embeddings service and the gateway as separate processes and prints their ports;
// traces leave every process over OTLP with one trace id; a service killed with SIGKILL is
// restarted on the same ports while the gateway answers 503, and the gateway recovers by itself;
// SIGTERM to the npm process lets in-flight requests finish and leaves no process behind.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { repoRoot, until } from '@tessera/testing';
import OpenAI from 'openai';
import { freePort } from '../tools/stack/ports';

const KEY = 'tsk-launcher-test';

interface ExportedSpan {
  traceId: string;
  name: string;
}

/** One "tessera: <name> ready[ again] (pid N): gRPC host:port, HTTP host:port" line. */
interface ReadyLine {
  pid: number;
  grpc: string;
  http: string;
}

let npm: ChildProcess;
let receiver: Server;
const exported = new Map<string, ExportedSpan[]>(); // service.name → spans
let baseURL: string;
let output = '';
/** Every process of the stack seen so far (for clean-up after a failure). */
const started = new Set<number>();

beforeAll(async () => {
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
  npm = spawn('npm', ['run', 'start:fixtures'], {
    cwd: repoRoot(),
    env: {
      ...process.env,
      PORT: String(port),
      TESSERA_API_KEYS: KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  npm.stdout!.on('data', (chunk) => (output += chunk));
  npm.stderr!.on('data', (chunk) => (output += chunk));
  // The script builds first (incremental, quick after `npm test`'s own build), then five
  // services load and warm their models: on a busy two-core CI machine that took over 150 s.
  await waitFor(() => output.includes(`Tessera is serving the OpenAI API at ${baseURL}`), 360_000);
  descendantsOf(npm.pid!).forEach((pid) => started.add(pid));
}, 390_000);

afterAll(async () => {
  // Only when a test failed: nothing this file started may outlive it (a process that lost its
  // parent is no longer below npm, hence the pids seen along the way).
  for (const pid of [npm?.pid, ...started, ...descendantsOf(npm?.pid ?? -1)]) {
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
  }
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

it("prints where the gateway's metrics are: a port of their own, not the API's", async () => {
  const printed = /The gateway's metrics are at (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(output);
  expect(printed).not.toBeNull();
  const metrics = await fetch(`${printed![1]}/metrics`);
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain('service="gateway"');
  expect((await fetch(`${new URL(baseURL).origin}/metrics`)).status).toBe(404);
});

it('prints the pid and ports of each process; npm execs the launcher', () => {
  const service = readyLine('embeddings ready');
  expect(service.grpc).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(service.http).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(output).toMatch(
    new RegExp(
      `tessera: gateway ready \\(pid \\d+\\): HTTP 127\\.0\\.0\\.1:${new URL(baseURL).port}`,
    ),
  );
  // The launcher is npm's own child (no shell in between), so npm's signals reach it.
  const launcher = descendantsOf(npm.pid!)[0];
  expect(commandOf(launcher)).toMatch(/^\S*node dist\/tools\/stack\/start\.js/);
  expect(descendantsOf(launcher)).toContain(service.pid);
});

it('restarts a killed service on the same ports; the gateway answers 503 meanwhile and recovers by itself', async () => {
  const before = readyLine('embeddings ready');
  const statuses: number[] = [];
  let serviceReadyAt = 0;
  let recoveredAt = 0;
  let unavailable: { status: number; body: unknown } | null = null;

  process.kill(before.pid, 'SIGKILL');
  const deadline = Date.now() + 60_000;
  while (!(recoveredAt && serviceReadyAt) && Date.now() < deadline) {
    const [answer, ready] = await Promise.all([
      postEmbedding(),
      fetch(`http://${before.http}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      ),
    ]);
    statuses.push(answer.status);
    if (answer.status === 503) unavailable ??= answer;
    if (ready && !serviceReadyAt && unavailable) serviceReadyAt = Date.now();
    if (answer.status === 200 && unavailable) recoveredAt ||= Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // Only ever a 200 (before the process was gone) or a 503 in the OpenAI envelope; never a 404
  // or 500 while the new process loads its models.
  expect(new Set(statuses)).toEqual(new Set([200, 503]));
  expect(unavailable!.body).toMatchObject({
    error: { type: 'service_unavailable_error', message: expect.stringMatching(/embeddings/) },
  });
  expect(recoveredAt).toBeGreaterThan(0);
  expect(serviceReadyAt).toBeGreaterThan(0);
  // Within a few seconds of the service being ready again (grpc-js' default reconnect backoff
  // made this ~9 s); the gateway may even be first, as the service's gRPC health turns SERVING
  // a moment before its /readyz does.
  expect(recoveredAt - serviceReadyAt).toBeLessThan(3000);

  // The launcher polls /readyz on its own schedule: its line may come a moment after ours.
  await until(() => output.includes('embeddings ready again'));
  const after = readyLine('embeddings ready again');
  expect(after.pid).not.toBe(before.pid);
  expect({ grpc: after.grpc, http: after.http }).toEqual({ grpc: before.grpc, http: before.http });
  expect(output).toContain(`embeddings (pid ${before.pid}) exited (SIGKILL); restarting in`);
}, 90_000);

it('on SIGTERM to the npm process, finishes in-flight requests, then everything exits', async () => {
  const processes = descendantsOf(npm.pid!);
  expect(processes.length).toBeGreaterThanOrEqual(3); // launcher, embeddings, gateway
  const input = Array.from({ length: 300 }, (_, i) => `sentence ${i} with a few more words`);
  // Each on its own connection: an idle pooled keep-alive socket may rightly be closed at
  // shutdown, but a request the gateway has received must be answered.
  const requests = Array.from({ length: 8 }, () =>
    postOnNewConnection(`${baseURL}/embeddings`, { model: 'tiny-bert', input }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
  npm.kill('SIGTERM');
  expect((await Promise.all(requests)).map((r) => r.status)).toEqual(Array(8).fill(200));
  expect(await exited).toBe(0);
  expect(processes.filter(alive)).toEqual([]);
}, 60_000);

async function postEmbedding(): Promise<{ status: number; body: unknown }> {
  return postOnNewConnection(`${baseURL}/embeddings`, { model: 'tiny-bert', input: 'hi' });
}

function postOnNewConnection(
  url: string,
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null }),
        );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

/** The last line the launcher printed that starts with "tessera: <prefix> (pid …)". */
function readyLine(prefix: string): ReadyLine {
  const pattern = new RegExp(`tessera: ${prefix} \\(pid (\\d+)\\): gRPC (\\S+), HTTP (\\S+) `, 'g');
  const matches = [...output.matchAll(pattern)];
  if (matches.length === 0) throw new Error(`no "${prefix}" line; launcher output:\n${output}`);
  const [, pid, grpc, http] = matches[matches.length - 1];
  started.add(Number(pid));
  return { pid: Number(pid), grpc, http };
}

/** Every process below `pid`, children before grandchildren. */
function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0;) {
    parents = table.filter(([, ppid]) => parents.includes(ppid)).map(([child]) => child);
    found.push(...parents);
  }
  return found;
}

function commandOf(pid: number): string {
  return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; launcher output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
