// Prometheus counters of billed usage per key id and model (never the key itself): one counter
// per unit, so that a rate or a sum over a month is one PromQL expression per unit.
import { Counter, type Registry } from 'prom-client';
import type { UsageAmounts, UsageRecord } from './usage.record';

type Labels = 'key_id' | 'model' | 'route';

const UNITS: Record<keyof UsageAmounts, { name: string; help: string }> = {
  inputTokens: {
    name: 'tessera_usage_input_tokens_total',
    help: 'Billed input tokens: chat prompt, embeddings and moderation input',
  },
  outputTokens: {
    name: 'tessera_usage_output_tokens_total',
    help: 'Billed chat completion tokens',
  },
  audioSeconds: {
    name: 'tessera_usage_audio_seconds_total',
    help: 'Billed seconds of audio transcribed or translated',
  },
  characters: {
    name: 'tessera_usage_characters_total',
    help: 'Billed characters of speech input',
  },
  images: { name: 'tessera_usage_images_total', help: 'Billed images in chat requests' },
};

export class UsageMetrics {
  private readonly requests: Counter<Labels | 'outcome'>;
  private readonly amounts: [keyof UsageAmounts, Counter<Labels>][];

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'tessera_usage_requests_total',
      help: 'Billed requests (completed, or streams the client left)',
      labelNames: ['key_id', 'model', 'route', 'outcome'],
      registers: [registry],
    });
    this.amounts = (Object.keys(UNITS) as (keyof UsageAmounts)[]).map((unit) => [
      unit,
      new Counter({
        ...UNITS[unit],
        labelNames: ['key_id', 'model', 'route'],
        registers: [registry],
      }),
    ]);
  }

  count(record: UsageRecord): void {
    // Auth disabled: no key, an empty label (Prometheus reads it as absent).
    const labels = { key_id: record.keyId ?? '', model: record.model, route: record.route };
    this.requests.inc({ ...labels, outcome: record.outcome });
    for (const [unit, counter] of this.amounts) {
      if (record[unit] > 0) counter.inc(labels, record[unit]);
    }
  }
}
