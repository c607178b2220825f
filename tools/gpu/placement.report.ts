// `npm run gpu:placement [filter…]`: for every graph an engine serves (placement.catalog.ts),
// which nodes ONNX Runtime's WebGPU provider leaves on the CPU, how many host↔device copies
// that inserts, and whether the outputs match the CPU provider's on one input. Each graph is
// probed in its own process (placement.probe.ts), one at a time, since on a software Vulkan
// driver each takes every core. A filter keeps the graphs whose label contains it;
// `--options '<json>'` adds session options to both sessions (e.g. '{"graphOptimizationLevel":
// "basic"}'), to see what a setting changes.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ModelStore } from '@tessera/models/store';
import { renderTextTable } from '../models/text-table.renderer';
import { CATALOG, locateGraph, type CatalogGraph } from './placement.catalog';
import { parsePlacement, type GraphPlacement } from './placement.parser';
import { RESULT_PREFIX, type ProbeRequest, type ProbeResult } from './placement.probe';

const WEBGPU = 'WebGpuExecutionProvider';
const CPU = 'CPUExecutionProvider';

interface Probed {
  readonly graph: CatalogGraph;
  readonly placement: GraphPlacement;
  readonly result: ProbeResult;
}

function probe(graph: CatalogGraph, file: string, options: ProbeRequest['options']): Probed {
  const request: ProbeRequest = { file, shapes: graph.shapes, options };
  const child = spawnSync(
    process.execPath,
    [join(__dirname, 'placement.probe.js'), JSON.stringify(request)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      // The Vulkan loader wants a runtime directory; a CI shell often has none.
      env: { XDG_RUNTIME_DIR: runtimeDir(), ...process.env },
    },
  );
  const output = `${child.stdout}\n${child.stderr}`;
  const line = output.split('\n').find((text) => text.startsWith(RESULT_PREFIX));
  const result: ProbeResult = line
    ? (JSON.parse(line.slice(RESULT_PREFIX.length)) as ProbeResult)
    : { ok: false, stage: 'create', error: `probe exited ${child.status ?? child.signal}` };
  return { graph, placement: parsePlacement(output), result };
}

function runtimeDir(): string {
  const dir = join(tmpdir(), 'tessera-xdg');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function row({ graph, placement, result }: Probed): string[] {
  const nodes = (provider: string) =>
    placement.providers.find((placed) => placed.provider === provider)?.nodes ?? 0;
  return [
    graph.engine,
    graph.label,
    String(nodes(WEBGPU)),
    String(nodes(CPU)),
    `${placement.memcpyFromHost}/${placement.memcpyToHost}`,
    verdict(result),
  ];
}

/** The largest output difference over the probe's runs, and whether greedy tokens agree. */
function verdict(result: ProbeResult): string {
  if (!result.ok) return `FAILS at ${result.stage}: ${result.error.split('\n')[0]}`;
  const outputs = result.runs.flat();
  if (outputs.some((output) => output.maxAbsDiff === null)) return 'WRONG: output shapes differ';
  const worst = outputs.reduce((a, b) => ((b.maxAbsDiff ?? 0) > (a.maxAbsDiff ?? 0) ? b : a));
  const argmax = outputs.some((output) => output.sameArgmax === false)
    ? ', argmax DIFFERS'
    : outputs.some((output) => output.sameArgmax)
      ? ', argmax same'
      : '';
  return `max|Δ| ${worst.maxAbsDiff?.toExponential(1)} (${worst.name}, |max| ${worst.maxAbs.toPrecision(3)})${argmax}`;
}

function cpuOpTypes({ graph, placement }: Probed): string {
  const cpu = placement.providers.find((placed) => placed.provider === CPU);
  const ops = Object.entries(cpu?.opTypes ?? {}).map(([op, count]) => `${op} ${count}`);
  const toHost = placement.toHostTensors;
  const copies = toHost.length === 0 ? '' : `\n  copied to the host: ${toHost.join(', ')}`;
  return `${graph.label}: ${ops.join(', ') || '(none)'}${copies}`;
}

async function main(args: readonly string[]): Promise<void> {
  const { values, positionals: filters } = parseArgs({
    args: [...args],
    options: { options: { type: 'string' } },
    allowPositionals: true,
  });
  const options = values.options
    ? (JSON.parse(values.options) as ProbeRequest['options'])
    : undefined;
  const root = resolve(__dirname, '..', '..', '..');
  const cacheDir = new ModelStore().cacheDir;
  const probed: Probed[] = [];
  for (const graph of CATALOG) {
    if (filters.length > 0 && !filters.some((filter) => graph.label.includes(filter))) continue;
    const file = await locateGraph(graph, root, cacheDir);
    if (file === undefined) {
      process.stderr.write(`skipped ${graph.label}: ${graph.file} is not here\n`);
      continue;
    }
    process.stderr.write(`probing ${graph.label}…\n`);
    probed.push(probe(graph, file, options));
  }
  const headers = ['ENGINE', 'GRAPH', 'WEBGPU', 'CPU', 'MEMCPY IN/OUT', 'WEBGPU VS CPU'];
  process.stdout.write(`${renderTextTable(headers, probed.map(row))}\n\nNodes on the CPU:\n`);
  process.stdout.write(`${probed.map(cpuOpTypes).join('\n')}\n`);
  process.exitCode = probed.some(({ result }) => !result.ok) ? 1 : 0;
}

void main(process.argv.slice(2));
