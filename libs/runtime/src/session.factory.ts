// Opens InferenceSessions inside a worker with the model's session settings. A provider other
// than CPU that cannot start (cuda: no GPU, no CUDA libraries in this onnxruntime-node build;
// webgpu: no Vulkan driver or loader) is dropped and the session opens on what is left, ending
// with CPU; each session is reported with the providers it opened with and those it dropped
// (the pool warns once per model). Calls on a session that asked for webgpu take turns with
// every other thread's (webgpu.turns.ts).
import { isAbsolute, join, relative } from 'node:path';
import { InferenceSession } from 'onnxruntime-node';
import type { SessionFactory } from './engine.contract';
import type { DroppedProvider, OpenedSession } from './execution-provider.report';
import type { ExecutionProvider, SessionSettings } from './runtime.options';
import type { WebGpuTurns } from './webgpu.turns';

export function sessionFactory(
  modelDir: string,
  settings: SessionSettings,
  onOpened: (opened: OpenedSession) => void,
  webgpu: WebGpuTurns,
): SessionFactory {
  // What is left after a fallback: later sessions of the worker skip it without trying again.
  let providers: ExecutionProvider[] = [...settings.executionProviders];
  const spinning = spinningConfig(settings);
  return {
    get providers() {
      return providers;
    },
    async create(model: string | Uint8Array): Promise<InferenceSession> {
      const source =
        typeof model !== 'string' ? model : isAbsolute(model) ? model : join(modelDir, model);
      const session =
        typeof source === 'string'
          ? relative(modelDir, source)
          : `an in-memory model (${source.length} bytes)`;
      const dropped: DroppedProvider[] = [];
      const options = (providers: readonly string[]): InferenceSession.SessionOptions => ({
        intraOpNumThreads: settings.intraOpNumThreads,
        interOpNumThreads: settings.interOpNumThreads,
        executionMode: settings.interOpNumThreads > 1 ? 'parallel' : 'sequential',
        graphOptimizationLevel: settings.graphOptimizationLevel,
        executionProviders: [...providers],
        ...(spinning && { extra: { session: spinning } }),
        // A provider that fails to start is reported once per model, by the pool's warning, not
        // also by ORT's own error log on stderr.
        ...(providers.some((provider) => provider !== 'cpu') && { logSeverityLevel: 4 as const }),
        ...(settings.freeDimensionOverrides && {
          freeDimensionOverrides: { ...settings.freeDimensionOverrides },
        }),
      });
      for (;;) {
        try {
          const onGpu = providers.includes('webgpu');
          const chosen = options(providers);
          // Two calls: the overloads of create() take a path or a buffer, not their union.
          const create = () =>
            typeof source === 'string'
              ? InferenceSession.create(source, chosen)
              : InferenceSession.create(source, chosen);
          const opened = onGpu ? await webgpu.take(create) : await create();
          onOpened({ session, providers: [...providers], dropped });
          return onGpu ? takingTurns(opened, webgpu) : opened;
        } catch (error) {
          const failed = providers.find((provider) => provider !== 'cpu');
          if (failed === undefined) throw error;
          dropped.push({
            provider: failed,
            reason: error instanceof Error ? error.message : String(error),
          });
          providers = providers.filter((provider) => provider !== failed);
          if (!providers.includes('cpu')) providers.push('cpu');
        }
      }
    },
  };
}

/** The session with its calls that reach the device (run, release) taking turns. */
function takingTurns(session: InferenceSession, webgpu: WebGpuTurns): InferenceSession {
  const run = session.run.bind(session) as (...args: unknown[]) => Promise<unknown>;
  const release = session.release.bind(session);
  return Object.assign(session, {
    run: (...args: unknown[]) => webgpu.take(() => run(...args)),
    release: () => webgpu.take(release),
  }) as InferenceSession;
}

/** ORT's session config entries for the spinning settings; it reads the values as "0" or "1". */
function spinningConfig(settings: SessionSettings) {
  if (!settings.intraOpSpinning) return { intra_op: { allow_spinning: '0' } };
  if (!settings.intraOpSpinningAfterRun) return { force_spinning_stop: '1' };
  return undefined;
}
