// Prometheus metrics of the engine's grammar compiler (JSON mode, structured outputs, tools):
// each constrained job tells, before its first token, whether its grammar came from the worker's
// cache and how long compiling it took (the generation's 'grammar' event).
import type { GenerationEvent } from '@tessera/decoder';
import { Counter, Histogram, type Registry } from 'prom-client';

export class GrammarMetrics {
  private readonly compilations: Counter<'model'>;
  private readonly cacheHits: Counter<'model'>;
  private readonly compileSeconds: Histogram<'model'>;

  constructor(registry: Registry) {
    const perModel = { labelNames: ['model'] as const, registers: [registry] };
    this.compilations = new Counter({
      name: 'tessera_chat_grammar_compilations_total',
      help: 'Grammars (response_format schemas, tool-call tags) compiled against a vocabulary',
      ...perModel,
    });
    this.cacheHits = new Counter({
      name: 'tessera_chat_grammar_cache_hits_total',
      help: 'Constrained generations whose grammar was already compiled in the worker',
      ...perModel,
    });
    this.compileSeconds = new Histogram({
      name: 'tessera_chat_grammar_compile_seconds',
      help: 'Time to compile one grammar (cache misses only)',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      ...perModel,
    });
  }

  record(model: string, grammar: Extract<GenerationEvent, { type: 'grammar' }>): void {
    if (grammar.cacheHit) {
      this.cacheHits.inc({ model });
    } else {
      this.compilations.inc({ model });
      this.compileSeconds.observe({ model }, grammar.compileMs / 1000);
    }
  }
}
