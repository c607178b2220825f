// `npm run bench:chat -- --json-schema`: what structured outputs cost. The same stack, prompts
// and fixed output length as the plain tessera-fp32 side, interleaved round by round with it,
// but every request carries `response_format: json_schema`, so each decode step also computes
// the grammar's token mask for every sequence and applies it before sampling. Compared as output
// tokens/s (both sides generate exactly `outputTokens` tokens per request), at each concurrency
// level; target: at most 10 % slower. The chat service's grammar metrics (compilations, cache
// hits, compile time) are read before and after: one schema, repeated by every request, should
// compile once.
import { round } from '../lib/latency.stats';
import type { TargetResult } from '../lib/bench.report';
import type { MetricSample } from '../lib/prometheus.scraper';
import type { SideLevelSummary } from './chat.report';
import { JSON_SCHEMA_SIDE } from './chat.sides';
import { ratioTarget } from './chat.targets';

/**
 * Far fewer tokens than the shortest record, `{"name": "", "city": "", "kind": "thing", "note":
 * ""}`, can be written in.
 */
const MIN_TOKENS_PER_RECORD = 4;

/**
 * An array of records a real model fills for a long time: free strings (a real model closes
 * them; their length is its business) and an enum, and exactly as many records as cannot fit in
 * `outputTokens`, so the value is never complete and end-of-sequence never allowed before
 * max_tokens — both sides generate the same number of tokens.
 */
export function benchJsonSchema(outputTokens: number): Record<string, unknown> {
  const records = Math.max(16, Math.ceil(outputTokens / MIN_TOKENS_PER_RECORD));
  return {
    type: 'object',
    properties: {
      records: {
        type: 'array',
        minItems: records,
        maxItems: records,
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            city: { type: 'string' },
            kind: { type: 'string', enum: ['person', 'place', 'thing'] },
            note: { type: 'string' },
          },
          required: ['name', 'city', 'kind', 'note'],
          additionalProperties: false,
        },
      },
    },
    required: ['records'],
    additionalProperties: false,
  };
}

/** The request fields the json-schema side adds. */
export function jsonSchemaRequestFields(outputTokens: number): Record<string, unknown> {
  return {
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'bench_records', schema: benchJsonSchema(outputTokens), strict: true },
    },
  };
}

export function jsonSchemaTargets(
  summaries: readonly SideLevelSummary[],
  concurrency: readonly number[],
): TargetResult[] {
  return concurrency.map((c) =>
    ratioTarget(summaries, {
      name: `c=${c} output tokens/s, ${JSON_SCHEMA_SIDE} / tessera-fp32 (same run)`,
      concurrency: c,
      candidate: JSON_SCHEMA_SIDE,
      reference: 'tessera-fp32',
      metric: 'tokensPerSec',
      goal: 0.9,
    }),
  );
}

/** The chat service's `tessera_chat_grammar_*` series. */
const GRAMMAR_METRIC = /^tessera_chat_grammar_/;

/**
 * How much each grammar series of the chat service grew over the run, summed over its labels
 * (compilations, cache hits, compile seconds' sum and count, …); null when the service exposes
 * none. Counters only grow, so the difference is what this run caused.
 */
export function grammarMetricsDelta(
  before: readonly MetricSample[] | null,
  after: readonly MetricSample[] | null,
): Record<string, number> | null {
  if (!after) return null;
  const sums = (samples: readonly MetricSample[] | null) => {
    const totals = new Map<string, number>();
    for (const s of samples ?? []) {
      if (GRAMMAR_METRIC.test(s.name) && !s.name.endsWith('_bucket')) {
        totals.set(s.name, (totals.get(s.name) ?? 0) + s.value);
      }
    }
    return totals;
  };
  const start = sums(before);
  const end = sums(after);
  if (end.size === 0) return null;
  return Object.fromEntries(
    [...end].map(([name, value]) => [name, round(value - (start.get(name) ?? 0), 4)]),
  );
}

/** One line for the log: compilations, cache hits and compile time, whichever are exposed. */
export function formatGrammarLine(delta: Record<string, number> | null): string {
  if (!delta) return 'grammar metrics: the chat service exposes no tessera_chat_grammar_* series';
  return `grammar metrics over the run: ${Object.entries(delta)
    .map(([name, value]) => `${name.replace(GRAMMAR_METRIC, '')} ${value}`)
    .join(', ')}`;
}
