// Child process of placement.report.ts, one per graph: opens the graph on `webgpu` with ORT's
// verbose log (the node placement dump goes to this process's output, where the parent reads
// it: ORT's native logger cannot be captured from JavaScript), then runs the same inputs on
// `webgpu` and on `cpu` and prints how far the outputs are apart, as one `RESULT` JSON line.
import { InferenceSession, type Tensor } from 'onnxruntime-node';
import { probeFeeds, type FeedShape } from './probe.feeds';

export interface ProbeRequest {
  readonly file: string;
  readonly shapes: readonly FeedShape[];
  /** Session options tried on top of the defaults (e.g. a graph optimization level). */
  readonly options?: InferenceSession.SessionOptions;
}

export interface OutputComparison {
  readonly name: string;
  /** Largest |webgpu − cpu| over the output; null when the shapes differ. */
  readonly maxAbsDiff: number | null;
  /** Largest |cpu| over the output, to read maxAbsDiff against. */
  readonly maxAbs: number;
  /** For `logits`: whether every position's argmax (the greedy token) is the same. */
  readonly sameArgmax?: boolean;
}

export type ProbeResult =
  | { readonly ok: true; readonly runs: readonly (readonly OutputComparison[])[] }
  | { readonly ok: false; readonly stage: 'create' | 'run'; readonly error: string };

export const RESULT_PREFIX = 'RESULT ';

async function probe(request: ProbeRequest): Promise<ProbeResult> {
  let webgpu: InferenceSession;
  try {
    webgpu = await InferenceSession.create(request.file, {
      ...request.options,
      executionProviders: ['webgpu'],
      logSeverityLevel: 0,
      logVerbosityLevel: 0,
    });
  } catch (error) {
    return { ok: false, stage: 'create', error: String(error) };
  }
  const cpu = await InferenceSession.create(request.file, {
    ...request.options,
    executionProviders: ['cpu'],
  });
  const quiet: InferenceSession.RunOptions = { logSeverityLevel: 3 };
  const runs: OutputComparison[][] = [];
  try {
    for (const shape of request.shapes) {
      const feeds = probeFeeds(cpu.inputMetadata, shape);
      const expected = await cpu.run(feeds);
      const actual = await webgpu.run(feeds, quiet);
      runs.push(cpu.outputNames.map((name) => compare(name, expected[name], actual[name])));
    }
  } catch (error) {
    return { ok: false, stage: 'run', error: String(error) };
  }
  return { ok: true, runs };
}

function compare(name: string, expected?: Tensor, actual?: Tensor): OutputComparison {
  const want = expected?.data as ArrayLike<number>;
  const got = actual?.data as ArrayLike<number>;
  const sameShape =
    expected !== undefined && actual !== undefined && expected.dims.join() === actual.dims.join();
  let maxAbs = 0;
  let maxAbsDiff = 0;
  for (let i = 0; sameShape && i < want.length; i++) {
    maxAbs = Math.max(maxAbs, Math.abs(Number(want[i])));
    maxAbsDiff = Math.max(maxAbsDiff, Math.abs(Number(want[i]) - Number(got[i])));
  }
  if (!sameShape) return { name, maxAbsDiff: null, maxAbs };
  if (name !== 'logits' || !expected) return { name, maxAbsDiff, maxAbs };
  const width = expected.dims[expected.dims.length - 1] ?? 1;
  let sameArgmax = true;
  for (let row = 0; row < want.length / width; row++) {
    sameArgmax &&= argmax(want, row * width, width) === argmax(got, row * width, width);
  }
  return { name, maxAbsDiff, maxAbs, sameArgmax };
}

function argmax(values: ArrayLike<number>, start: number, width: number): number {
  let best = start;
  for (let i = start; i < start + width; i++) if (values[i]! > values[best]!) best = i;
  return best - start;
}

if (require.main === module) {
  const request = JSON.parse(process.argv[2] ?? '{}') as ProbeRequest;
  void probe(request).then((result) => {
    process.stdout.write(`\n${RESULT_PREFIX}${JSON.stringify(result)}\n`);
    // The sessions hold Dawn's device; exiting is quicker than releasing them one by one.
    process.exit(0);
  });
}
