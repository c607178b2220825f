import { z } from 'zod';
import { RuntimeOptionsSchema, parseModelOptions, sessionSettings } from './runtime.options';

// A capability's schema, as each one builds it: the shared options plus its own.
const Schema = RuntimeOptionsSchema.extend({ max_batch_items: z.number().int().min(1) }).strict();
const what = "embeddings model 'm' in models.yaml";

describe('per-model runtime options', () => {
  it('fills in the defaults: CPU, all optimisations, one inter-op thread, a bounded queue', () => {
    expect(parseModelOptions(Schema, { max_batch_items: 8 }, what)).toEqual({
      workers: 1,
      execution_providers: ['cpu'],
      inter_op_threads: 1,
      graph_optimization_level: 'all',
      intra_op_spinning: true,
      intra_op_spinning_after_run: true,
      max_queued_items: 4096,
      max_batch_items: 8,
    });
  });

  it('turns them into session settings', () => {
    const options = parseModelOptions(
      Schema,
      {
        max_batch_items: 8,
        execution_providers: ['cuda', 'cpu'],
        intra_op_threads: 3,
        inter_op_threads: 2,
        graph_optimization_level: 'basic',
        intra_op_spinning: false,
        intra_op_spinning_after_run: false,
        free_dimension_overrides: { batch_size: 1 },
      },
      what,
    );
    expect(sessionSettings(options)).toEqual({
      executionProviders: ['cuda', 'cpu'],
      intraOpNumThreads: 3,
      interOpNumThreads: 2,
      graphOptimizationLevel: 'basic',
      intraOpSpinning: false,
      intraOpSpinningAfterRun: false,
      freeDimensionOverrides: { batch_size: 1 },
    });
  });

  it('takes webgpu among the providers, alone or after cuda, in the order given', () => {
    for (const providers of [['webgpu', 'cpu'], ['cuda', 'webgpu', 'cpu'], ['webgpu']]) {
      const options = parseModelOptions(
        Schema,
        { max_batch_items: 8, execution_providers: providers },
        what,
      );
      expect(sessionSettings(options).executionProviders).toEqual(providers);
    }
  });

  it('refuses bad values with an error naming the model and every option at fault', () => {
    const bad = {
      max_batch_items: 8,
      execution_providers: ['tpu'],
      graph_optimization_level: 'max',
      intra_op_spinning: 'no',
      free_dimension_overrides: { batch_size: 0 },
      threads: 4,
    };
    const error = (() => {
      try {
        parseModelOptions(Schema, bad, what);
      } catch (caught) {
        return (caught as Error).message;
      }
      return 'no error';
    })();
    expect(error).toMatch(/^invalid options for embeddings model 'm' in models.yaml: /);
    for (const option of [
      'execution_providers.0',
      'graph_optimization_level',
      'intra_op_spinning',
      'free_dimension_overrides.batch_size',
      'threads',
    ]) {
      expect(error).toContain(option);
    }
  });
});
