// Which execution providers a model's sessions really opened with, gathered from every worker of
// every pool the model starts (a chat model's decoder and image encoder, a moderation model's
// classifiers). A provider that could not start is reported once per model, not once per worker
// and session. A service opens each model inside `reportingProviders`, so the pools its engine
// creates report to the model without the engine passing anything along.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ExecutionProvider } from './runtime.options';

/** A provider a session asked for but could not start, and ONNX Runtime's reason. */
export interface DroppedProvider {
  readonly provider: ExecutionProvider;
  readonly reason: string;
}

/** What one worker's session factory reports for each session it opened. */
export interface OpenedSession {
  /** The model file relative to the model directory, or a description of an in-memory graph. */
  readonly session: string;
  /**
   * The providers the session opened with, in order. Nodes the first one does not support run
   * on the CPU provider: the session still runs on the first one.
   */
  readonly providers: readonly ExecutionProvider[];
  readonly dropped: readonly DroppedProvider[];
}

export class ExecutionProviderReport {
  /** Keyed by pool directory, worker and session: a restarted worker replaces its own. */
  private readonly sessions = new Map<string, OpenedSession>();
  private readonly warned = new Set<ExecutionProvider>();

  /**
   * @param model how warnings name the model (`model 'tiny-bert'`, or a directory)
   * @param onChange called when what `runsOn()` answers may have changed
   */
  constructor(
    readonly model: string,
    private readonly onChange: () => void = () => undefined,
  ) {}

  /** Records a session; returns the warnings to log: each provider dropped, once per model. */
  record(modelDir: string, worker: number, opened: OpenedSession): string[] {
    this.sessions.set(JSON.stringify([modelDir, worker, opened.session]), opened);
    this.onChange();
    const warnings: string[] = [];
    for (const { provider, reason } of opened.dropped) {
      if (this.warned.has(provider)) continue;
      this.warned.add(provider);
      warnings.push(
        `execution provider '${provider}' could not be used for ${this.model} (${reason}); ` +
          `falling back to ${opened.providers.join(', ')}`,
      );
    }
    return warnings;
  }

  /** The provider each session runs on (the first it opened with), each once, in order seen. */
  runsOn(): ExecutionProvider[] {
    return [...new Set([...this.sessions.values()].map((opened) => opened.providers[0]))];
  }

  /** Each distinct session with the providers it opened with: `onnx/model.onnx [webgpu, cpu]`. */
  describe(): string {
    const lines = [...this.sessions.values()].map(
      ({ session, providers }) => `${session} [${providers.join(', ')}]`,
    );
    return [...new Set(lines)].join(', ');
  }
}

const current = new AsyncLocalStorage<ExecutionProviderReport>();

/** Runs `open` so that every worker pool created inside it reports its sessions to `report`. */
export function reportingProviders<T>(
  report: ExecutionProviderReport,
  open: () => Promise<T>,
): Promise<T> {
  return current.run(report, open);
}

/** The report of the model being opened, for a pool created now; undefined outside one. */
export function currentProviderReport(): ExecutionProviderReport | undefined {
  return current.getStore();
}
