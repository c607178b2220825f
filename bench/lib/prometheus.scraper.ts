// Reads a Prometheus text exposition (/metrics of the gateway and of the embeddings service)
// into samples, enough to pick the few values the benchmark records.

export interface MetricSample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** Sum of a metric's samples whose labels include `where`. */
export function sumOf(
  samples: readonly MetricSample[],
  name: string,
  where: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

export async function scrapeMetrics(url: string, timeoutMs = 2000): Promise<MetricSample[] | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return null;
    return parsePrometheusText(await response.text());
  } catch {
    return null;
  }
}
