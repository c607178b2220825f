// Opens InferenceSessions inside a worker with the model's session settings. A provider other
// than CPU that cannot start (cuda: no GPU, no CUDA libraries in this onnxruntime-node build;
// webgpu: no Vulkan driver or loader) is dropped and the session opens on what is left, ending
// with CPU; each session is reported with the providers it opened with and those it dropped
// (the pool warns once per model).
import { isAbsolute, join, relative } from 'node:path';
import { InferenceSession } from 'onnxruntime-node';
import type { SessionFactory } from './engine.contract';
import type { DroppedProvider, OpenedSession } from './execution-provider.report';
import type { ExecutionProvider, SessionSettings } from './runtime.options';

export function sessionFactory(
  modelDir: string,
  settings: SessionSettings,
  onOpened: (opened: OpenedSession) => void,
): SessionFactory {
  // What is left after a fallback: later sessions of the worker skip it without trying again.
  let providers: ExecutionProvider[] = [...settings.executionProviders];
  const spinning = spinningConfig(settings);
  return {
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
          // Two calls: the overloads of create() take a path or a buffer, not their union.
          const opened =
            typeof source === 'string'
              ? await InferenceSession.create(source, options(providers))
              : await InferenceSession.create(source, options(providers));
          onOpened({ session, providers: [...providers], dropped });
          return opened;
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

/** ORT's session config entries for the spinning settings; it reads the values as "0" or "1". */
function spinningConfig(settings: SessionSettings) {
  if (!settings.intraOpSpinning) return { intra_op: { allow_spinning: '0' } };
  if (!settings.intraOpSpinningAfterRun) return { force_spinning_stop: '1' };
  return undefined;
}
