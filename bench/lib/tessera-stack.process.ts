// The candidate: the whole Tessera stack (gateway + services, separate processes on loopback,
// real gRPC between them) started by the stack launcher from a models file that serves only the
// benchmark's models, with the options under test.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Capability } from '@tessera/contracts';
import { freePort } from '../../tools/stack/ports';
import { ChildOutputError, KEPT_CHARS, waitForOutput } from './child-output';
import { processTree } from './process-tree.sampler';

/** One entry of the models file (see config/models.yaml), as the benchmark writes it. */
export interface BenchModelEntry {
  readonly id: string;
  readonly capability: Capability;
  /** A local model directory. */
  readonly source: string;
  readonly dtype?: string;
  /** The graph inside `source`, for capabilities whose model is one named file (speech voices). */
  readonly file?: string;
  /** The capability's model options under test (unset → the service's default). */
  readonly options?: Record<string, unknown>;
}

export interface StackOptions {
  readonly launcher: string;
  readonly models: readonly BenchModelEntry[];
  /** Written into the models file's header comment. */
  readonly writtenBy: string;
  readonly apiKey: string;
  /** Longest wait for "Tessera is serving…" (models load and warm before it). */
  readonly readyTimeoutMs?: number;
}

const SERVING = /Tessera is serving the OpenAI API at (\S+)/;
/** Environment the stack must not inherit: it would change auth, the models file or tracing. */
const DROPPED_ENV = [
  'TESSERA_API_KEYS_FILE',
  'TESSERA_AUTH',
  'TESSERA_MODELS_FILE',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
];

export class TesseraStack {
  private output = '';

  private constructor(
    readonly baseURL: string,
    /** The gateway's /metrics origin (a port of its own), `http://127.0.0.1:<port>`. */
    readonly metricsOrigin: string,
    readonly modelsFile: string,
    private readonly child: ChildProcess,
    private readonly tempDir: string,
    outputSoFar: string,
  ) {
    this.output = outputSoFar;
    const keep = (chunk: Buffer) => this.keepOutput(chunk.toString('utf8'));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** The gateway's base URL without `/v1`, for /readyz. */
  get origin(): string {
    return this.baseURL.replace(/\/v1\/?$/, '');
  }

  /** The last lines the stack printed (for error reports). */
  get recentOutput(): string {
    return this.output;
  }

  static async start(options: StackOptions): Promise<TesseraStack> {
    const tempDir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
    const modelsFile = join(tempDir, 'models.yaml');
    const models = { models: options.models };
    writeFileSync(modelsFile, `# written by ${options.writtenBy}\n${stringify(models)}`);

    const metricsPort = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of DROPPED_ENV) delete env[name];
    Object.assign(env, {
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      METRICS_PORT: String(metricsPort),
      TESSERA_API_KEYS: options.apiKey,
    });
    const child = spawn(process.execPath, [options.launcher, '--models', modelsFile], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    const ready = await waitForOutput(child, SERVING, options.readyTimeoutMs ?? 180_000).catch(
      (error: unknown) => {
        child.kill('SIGTERM');
        rmSync(tempDir, { recursive: true, force: true });
        const output = error instanceof ChildOutputError ? error.output : '';
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`the stack ${reason}\n--- stack output ---\n${output}`, { cause: error });
      },
    );
    return new TesseraStack(
      ready.match[1],
      `http://127.0.0.1:${metricsPort}`,
      modelsFile,
      child,
      tempDir,
      ready.output,
    );
  }

  /**
   * SIGTERM to the launcher, which stops the gateway and then the service. Should it hang and
   * need SIGKILL, the services it started (and only those) are killed by pid too.
   */
  async stop(timeoutMs = 20_000): Promise<void> {
    const { child } = this;
    if (child.exitCode === null && child.signalCode === null) {
      const started = (await processTree(this.pid)).filter((pid) => pid !== this.pid);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        for (const pid of started) killQuietly(pid);
      }, timeoutMs);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.tempDir, { recursive: true, force: true });
  }

  private keepOutput(text: string): void {
    this.output = (this.output + text).slice(-KEPT_CHARS);
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
