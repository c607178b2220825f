import Ajv2020 from 'ajv/dist/2020';
import type { MetricSample } from '../lib/prometheus.scraper';
import type { SideLevelSummary } from './chat.report';
import type { SideName } from './chat.sides';
import {
  benchJsonSchema,
  formatGrammarLine,
  grammarMetricsDelta,
  jsonSchemaTargets,
} from './json-schema.workload';

const sample = (name: string, value: number, model = 'm'): MetricSample => ({
  name,
  labels: { model },
  value,
});

function summary(side: SideName, concurrency: number, tokensPerSec: number): SideLevelSummary {
  return {
    side,
    concurrency,
    tokensPerSec,
    tokensPerSecPerRound: [tokensPerSec],
    ttftMs: { p50: 1, p99: 1 },
    itlMs: { p50: 1, p99: 1 },
    decodeTokensPerSec: tokensPerSec,
    bandwidthFraction: 0.5,
    cpuMsPerToken: 1,
    otherLoad: 0,
    lengthMismatches: 0,
  };
}

describe('--json-schema workload', () => {
  it('asks for more records than the output can hold, so the value never completes', () => {
    for (const outputTokens of [32, 128, 1000]) {
      const schema = benchJsonSchema(outputTokens) as {
        properties: { records: { minItems: number; maxItems: number } };
      };
      // Every record takes well over 4 tokens (its four keys alone are 4).
      expect(schema.properties.records.minItems * 4).toBeGreaterThanOrEqual(outputTokens);
      expect(schema.properties.records.maxItems).toBe(schema.properties.records.minItems);
      // A schema strict Ajv accepts as written.
      expect(() =>
        new Ajv2020({ strict: true }).compile(benchJsonSchema(outputTokens)),
      ).not.toThrow();
    }
  });

  it('counts what each grammar series grew by, over its labels, leaving out buckets', () => {
    const before = [
      sample('tessera_chat_grammar_compilations_total', 1),
      sample('tessera_chat_grammar_cache_hits_total', 2),
      sample('tessera_chat_requests_total', 5),
    ];
    const after = [
      sample('tessera_chat_grammar_compilations_total', 2),
      sample('tessera_chat_grammar_cache_hits_total', 10),
      sample('tessera_chat_grammar_cache_hits_total', 3, 'other'),
      sample('tessera_chat_grammar_compile_seconds_bucket', 4),
      sample('tessera_chat_grammar_compile_seconds_sum', 0.25),
      sample('tessera_chat_requests_total', 9),
    ];
    const delta = grammarMetricsDelta(before, after);
    expect(delta).toEqual({
      tessera_chat_grammar_compilations_total: 1,
      tessera_chat_grammar_cache_hits_total: 11,
      tessera_chat_grammar_compile_seconds_sum: 0.25,
    });
    expect(formatGrammarLine(delta)).toBe(
      'grammar metrics over the run: compilations_total 1, cache_hits_total 11, compile_seconds_sum 0.25',
    );
  });

  it('says so when the service exposes no grammar series', () => {
    expect(grammarMetricsDelta(null, [sample('tessera_chat_requests_total', 1)])).toBeNull();
    expect(grammarMetricsDelta(null, null)).toBeNull();
    expect(formatGrammarLine(null)).toMatch(/no tessera_chat_grammar_\* series/);
  });

  it('judges json-schema tokens/s against plain tessera-fp32 at each level', () => {
    const targets = jsonSchemaTargets(
      [
        summary('tessera-fp32', 1, 20),
        summary('tessera-fp32-json-schema', 1, 19),
        summary('tessera-fp32', 8, 60),
        summary('tessera-fp32-json-schema', 8, 50),
      ],
      [1, 8],
    );
    expect(targets.map((t) => [t.value, t.pass])).toEqual([
      [0.95, true],
      [0.833, false],
    ]);
  });
});
