// Opens InferenceSessions inside a worker with the model's session settings. A provider other
// than CPU that cannot load (no GPU, no CUDA libraries in this onnxruntime-node build) is
// dropped with a warning (once per worker) and the session opens on what is left, ending with
// CPU.
import { isAbsolute, join } from 'node:path';
import { InferenceSession } from 'onnxruntime-node';
import type { SessionFactory } from './engine.contract';
import type { SessionSettings } from './runtime.options';

export function sessionFactory(
  modelDir: string,
  settings: SessionSettings,
  warn: (message: string) => void,
): SessionFactory {
  // What is left after a fallback: later sessions of the worker skip it without a new warning.
  let providers = [...settings.executionProviders];
  const spinning = spinningConfig(settings);
  return {
    async create(model: string | Uint8Array): Promise<InferenceSession> {
      const source =
        typeof model !== 'string' ? model : isAbsolute(model) ? model : join(modelDir, model);
      const what =
        typeof source === 'string' ? source : `an in-memory model (${source.length} bytes)`;
      const options = (providers: readonly string[]): InferenceSession.SessionOptions => ({
        intraOpNumThreads: settings.intraOpNumThreads,
        interOpNumThreads: settings.interOpNumThreads,
        executionMode: settings.interOpNumThreads > 1 ? 'parallel' : 'sequential',
        graphOptimizationLevel: settings.graphOptimizationLevel,
        executionProviders: [...providers],
        ...(spinning && { extra: { session: spinning } }),
        // A provider that fails to load is reported once, by the warning below, not also by
        // ORT's own error log on stderr.
        ...(providers.some((provider) => provider !== 'cpu') && { logSeverityLevel: 4 as const }),
        ...(settings.freeDimensionOverrides && {
          freeDimensionOverrides: { ...settings.freeDimensionOverrides },
        }),
      });
      for (;;) {
        try {
          // Two calls: the overloads of create() take a path or a buffer, not their union.
          return typeof source === 'string'
            ? await InferenceSession.create(source, options(providers))
            : await InferenceSession.create(source, options(providers));
        } catch (error) {
          const failed = providers.find((provider) => provider !== 'cpu');
          if (failed === undefined) throw error;
          const reason = error instanceof Error ? error.message : String(error);
          providers = providers.filter((provider) => provider !== failed);
          if (!providers.includes('cpu')) providers.push('cpu');
          warn(
            `execution provider '${failed}' could not be used for ${what} (${reason}); ` +
              `falling back to ${providers.join(', ')}`,
          );
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
