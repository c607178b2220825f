// How many bytes of weights one decode step of an ONNX graph reads: the sizes of its
// initializers, read from the file's protobuf (only names, shapes and element types: raw data is
// skipped, not copied), less the tables that only a Gather reads (an embedding lookup reads one
// row per token, not the table). protobufjs rather than a hand-written wire reader: it is
// already what @grpc/proto-loader parses with.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';

/** The parts of onnx.proto (field numbers as published) this needs; other fields are skipped. */
const ONNX_SUBSET = protobuf.Root.fromJSON({
  nested: {
    ModelProto: { fields: { graph: { type: 'GraphProto', id: 7 } } },
    GraphProto: {
      fields: {
        node: { rule: 'repeated', type: 'NodeProto', id: 1 },
        initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
      },
    },
    NodeProto: {
      fields: {
        input: { rule: 'repeated', type: 'string', id: 1 },
        opType: { type: 'string', id: 4 },
      },
    },
    TensorProto: {
      fields: {
        dims: { rule: 'repeated', type: 'int64', id: 1 },
        dataType: { type: 'int32', id: 2 },
        name: { type: 'string', id: 8 },
      },
    },
  },
});

/** Bytes per element of ONNX TensorProto.DataType (int4/uint4 pack two per byte). */
const ELEMENT_BYTES: Record<number, number> = {
  1: 4, // float
  2: 1, // uint8
  3: 1, // int8
  4: 2, // uint16
  5: 2, // int16
  6: 4, // int32
  7: 8, // int64
  9: 1, // bool
  10: 2, // float16
  11: 8, // double
  12: 4, // uint32
  13: 8, // uint64
  16: 2, // bfloat16
  17: 1, // float8 variants
  18: 1,
  19: 1,
  20: 1,
  21: 0.5, // uint4
  22: 0.5, // int4
};

export interface OnnxWeights {
  /** Every initializer. */
  readonly totalBytes: number;
  /** What one decode step reads: all initializers but the Gather-only tables. */
  readonly bytesPerStep: number;
  /** Initializers left out of bytesPerStep (embedding tables), with their sizes. */
  readonly gatherOnly: Record<string, number>;
  /** Operator → count, e.g. how many MatMulNBits a quantized export has. */
  readonly ops: Record<string, number>;
}

interface Decoded {
  graph?: {
    node?: Array<{ input?: string[]; opType?: string }>;
    initializer?: Array<{
      dims?: Array<number | { toNumber(): number }>;
      dataType?: number;
      name?: string;
    }>;
  };
}

export function inspectOnnxWeights(file: string): OnnxWeights {
  const model = ONNX_SUBSET.lookupType('ModelProto').decode(
    readFileSync(file),
  ) as unknown as Decoded;
  const nodes = model.graph?.node ?? [];
  const ops: Record<string, number> = {};
  // Which operators read each value, and whether as a Gather's table (its first input).
  const readers = new Map<string, { gatherTable: number; other: number }>();
  for (const node of nodes) {
    const op = node.opType ?? '';
    ops[op] = (ops[op] ?? 0) + 1;
    (node.input ?? []).forEach((input, position) => {
      const entry = readers.get(input) ?? { gatherTable: 0, other: 0 };
      if (op === 'Gather' && position === 0) entry.gatherTable++;
      else entry.other++;
      readers.set(input, entry);
    });
  }
  let totalBytes = 0;
  let bytesPerStep = 0;
  const gatherOnly: Record<string, number> = {};
  for (const tensor of model.graph?.initializer ?? []) {
    const elements = (tensor.dims ?? []).reduce<number>((n, d) => n * Number(d), 1);
    const bytes = elements * (ELEMENT_BYTES[tensor.dataType ?? 0] ?? 4);
    totalBytes += bytes;
    const read = readers.get(tensor.name ?? '');
    if (read && read.gatherTable > 0 && read.other === 0) gatherOnly[tensor.name ?? ''] = bytes;
    else bytesPerStep += bytes;
  }
  return { totalBytes, bytesPerStep, gatherOnly, ops };
}
