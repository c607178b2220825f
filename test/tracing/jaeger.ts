// A real Jaeger v2 for the tracing suite: the binary tools/k8s/go-tool.sh built, run with
// test/tracing/jaeger.yaml on free loopback ports, and a client of the query API its UI uses
// (GET /api/traces), with the few readings of its JSON spans the tests need.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';
import { freePort } from '../../tools/stack/ports';

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  tags: Array<{ key: string; type: string; value: unknown }>;
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/** The binary `npm run test:tracing` ensured (this file never builds: that takes minutes). */
function jaegerBinary(): string {
  const script = path.join(repoRoot(), 'tools/k8s/go-tool.sh');
  const binary = path.join(
    execFileSync('bash', [script, 'bin'], { encoding: 'utf8' }).trim(),
    'jaeger',
  );
  if (!fs.existsSync(binary)) {
    throw new Error(`${binary} is missing: \`npm run test:tracing\` builds it (Go required)`);
  }
  return binary;
}

export class Jaeger {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    /** OTLP/HTTP, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
    readonly otlpEndpoint: string,
    /** The query API and the UI. */
    readonly queryUrl: string,
  ) {
    child.stdout!.on('data', (chunk) => (this.output += chunk));
    child.stderr!.on('data', (chunk) => (this.output += chunk));
  }

  static async start(timeoutMs = 30_000): Promise<Jaeger> {
    const [otlp, query, queryGrpc] = [await freePort(), await freePort(), await freePort()];
    const child = spawn(
      jaegerBinary(),
      ['--config', path.join(repoRoot(), 'test/tracing/jaeger.yaml')],
      {
        env: {
          ...process.env,
          JAEGER_OTLP_HTTP_PORT: String(otlp),
          JAEGER_QUERY_PORT: String(query),
          JAEGER_QUERY_GRPC_PORT: String(queryGrpc),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const jaeger = new Jaeger(child, `http://127.0.0.1:${otlp}`, `http://127.0.0.1:${query}`);
    await jaeger.waitReady(timeoutMs);
    return jaeger;
  }

  /**
   * Ready when both ends answer: the query API, and the OTLP receiver taking an empty export
   * (the collector starts its extensions before its pipelines).
   */
  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`jaeger exited before it was ready:\n${this.output}`);
      }
      const [query, otlp] = await Promise.all([
        this.get('/api/services').then(
          (r) => r.ok,
          () => false,
        ),
        fetch(`${this.otlpEndpoint}/v1/traces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
          signal: AbortSignal.timeout(2000),
        }).then(
          (r) => r.ok,
          () => false,
        ),
      ]);
      if (query && otlp) return;
      if (Date.now() > deadline) {
        throw new Error(`jaeger not ready within ${timeoutMs} ms:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The traces of `service` that have a span with all of `tags` (whole traces: every service). */
  async findTraces(service: string, tags: Record<string, string>): Promise<JaegerTrace[]> {
    const query = new URLSearchParams({
      service,
      tags: JSON.stringify(tags),
      lookback: '1h',
      limit: '20',
    });
    const response = await this.get(`/api/traces?${query}`);
    if (!response.ok) {
      throw new Error(`GET /api/traces: ${response.status} ${await response.text()}`);
    }
    return ((await response.json()) as { data: JaegerTrace[] | null }).data ?? [];
  }

  /**
   * Polls `findTraces` until `complete` holds for what it returns (spans reach Jaeger in the
   * exporters' batches, from several processes), or the time is up; returns what it last saw
   * either way, for the caller's assertions to explain.
   */
  async waitForTraces(
    service: string,
    tags: Record<string, string>,
    complete: (traces: JaegerTrace[]) => boolean,
    timeoutMs = 30_000,
  ): Promise<JaegerTrace[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const traces = await this.findTraces(service, tags);
      if (complete(traces) || Date.now() > deadline) return traces;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private get(pathAndQuery: string): Promise<Response> {
    return fetch(`${this.queryUrl}${pathAndQuery}`, { signal: AbortSignal.timeout(5000) });
  }
}

/** A span's attribute (Jaeger calls them tags), as JSON gave it. */
export function tagOf(span: JaegerSpan, key: string): unknown {
  return span.tags.find((tag) => tag.key === key)?.value;
}

/** The span this one is a child of, by id ('' for a root). */
export function parentIdOf(span: JaegerSpan): string {
  return span.references.find((ref) => ref.refType === 'CHILD_OF')?.spanID ?? '';
}

export function serviceOf(trace: JaegerTrace, span: JaegerSpan): string {
  return trace.processes[span.processID]?.serviceName ?? '';
}
