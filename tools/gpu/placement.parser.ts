// Reads ONNX Runtime's verbose session log (severity 0) for the node placement it prints once a
// graph is partitioned: which execution provider each node was assigned to, per op type, and the
// Memcpy nodes ORT inserted where a tensor crosses between the CPU and a device.

export interface ProviderPlacement {
  /** As ORT names it: `WebGpuExecutionProvider`, `CPUExecutionProvider`. */
  readonly provider: string;
  readonly nodes: number;
  /** Node count per op type, e.g. `{ MatMul: 14, Shape: 3 }`. */
  readonly opTypes: Readonly<Record<string, number>>;
}

export interface GraphPlacement {
  /** One entry per provider, summed over the main graph and its subgraphs (If branches). */
  readonly providers: readonly ProviderPlacement[];
  /** Copies into device memory that ORT inserted (`MemcpyFromHost` nodes). */
  readonly memcpyFromHost: number;
  /** Copies back to host memory that ORT inserted (`MemcpyToHost` nodes). */
  readonly memcpyToHost: number;
  /**
   * The tensors copied back to the host: each copy waits for the device to finish the work
   * queued before it, so these, not the small copies up, are what a CPU node costs.
   */
  readonly toHostTensors: readonly string[];
}

const PLACED_ON = /Node\(s\) placed on \[(\w+)\]\. Number of nodes: (\d+)/;
// When one provider takes every node ORT gives only the count, not the nodes.
const ALL_PLACED_ON = /All nodes placed on \[(\w+)\]\. Number of nodes: (\d+)/;
// A placement line is the op type and the node name in parentheses, indented under its provider.
const NODE = /VerifyEachNodeIsAssignedToAnEp\]\s{3,}(\S+) \((.*)\)\s*$/;

const TO_HOST = /Add MemcpyToHost before (\S+) for /;

export function parsePlacement(log: string): GraphPlacement {
  const byProvider = new Map<string, { nodes: number; opTypes: Map<string, number> }>();
  let current: { nodes: number; opTypes: Map<string, number> } | undefined;
  for (const line of log.split('\n')) {
    const all = ALL_PLACED_ON.exec(line);
    if (all) {
      const provider = all[1] ?? '';
      const entry = byProvider.get(provider) ?? { nodes: 0, opTypes: new Map() };
      entry.nodes += Number(all[2]);
      byProvider.set(provider, entry);
      current = undefined;
      continue;
    }
    const placed = PLACED_ON.exec(line);
    if (placed) {
      const provider = placed[1] ?? '';
      current = byProvider.get(provider) ?? { nodes: 0, opTypes: new Map() };
      byProvider.set(provider, current);
      continue;
    }
    const node = current && NODE.exec(line);
    if (node && current) {
      const opType = node[1] ?? '';
      current.nodes += 1;
      current.opTypes.set(opType, (current.opTypes.get(opType) ?? 0) + 1);
    } else if (!line.includes('VerifyEachNodeIsAssignedToAnEp')) {
      current = undefined;
    }
  }
  const providers = [...byProvider].map(([provider, { nodes, opTypes }]) => ({
    provider,
    nodes,
    opTypes: Object.fromEntries([...opTypes].sort(([, a], [, b]) => b - a)),
  }));
  const count = (opType: string) =>
    providers.reduce((sum, placement) => sum + (placement.opTypes[opType] ?? 0), 0);
  const toHostTensors = log
    .split('\n')
    .map((line) => TO_HOST.exec(line)?.[1])
    .filter((tensor): tensor is string => tensor !== undefined);
  return {
    providers,
    memcpyFromHost: count('MemcpyFromHost'),
    memcpyToHost: count('MemcpyToHost'),
    toHostTensors,
  };
}
