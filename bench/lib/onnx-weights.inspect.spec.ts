// The inspector reads the committed one-node ceiling graph (a MatMul with no initializers) and a
// decoder graph written here with protobufjs from onnx.proto's published field numbers, so a
// wrong field number in the inspector's schema shows as a wrong count.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { inspectOnnxWeights } from './onnx-weights.inspect';

const onnx = protobuf.parse(
  `
  syntax = "proto3";
  message TensorProto { repeated int64 dims = 1; int32 data_type = 2; string name = 8; bytes raw_data = 9; }
  message NodeProto { repeated string input = 1; repeated string output = 2; string op_type = 4; }
  message GraphProto { repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5; }
  message ModelProto { int64 ir_version = 1; GraphProto graph = 7; }
`,
  { keepCase: true },
).root;

describe('ONNX weight bytes per decode step', () => {
  it('reads the ceiling graph: one MatMul, no weights', () => {
    const weights = inspectOnnxWeights(join(__dirname, 'matmul-ceiling.onnx'));
    expect(weights).toEqual({ totalBytes: 0, bytesPerStep: 0, gatherOnly: {}, ops: { MatMul: 1 } });
  });

  it('leaves out a table only a Gather reads, keeps one a MatMul also reads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'onnx-weights-'));
    try {
      const Model = onnx.lookupType('ModelProto');
      const tensor = (name: string, dims: number[], dataType: number) => ({
        name,
        dims,
        data_type: dataType,
        raw_data: Buffer.alloc(4),
      });
      const model = Model.create({
        ir_version: 8,
        graph: {
          name: 'g',
          node: [
            { input: ['embed', 'ids'], output: ['h'], op_type: 'Gather' },
            { input: ['h', 'w'], output: ['y'], op_type: 'MatMul' },
            { input: ['tied', 'ids'], output: ['h2'], op_type: 'Gather' },
            { input: ['y', 'tied'], output: ['logits'], op_type: 'MatMul' },
            { input: ['y', 'q', 's'], output: ['z'], op_type: 'MatMulNBits' },
          ],
          initializer: [
            tensor('embed', [100, 8], 1), // fp32, Gather only: 3200 bytes left out
            tensor('w', [8, 8], 1), // 256
            tensor('tied', [8, 100], 1), // 3200, read whole by the MatMul
            tensor('q', [8, 1, 16], 2), // uint8: 128
            tensor('s', [8, 1], 10), // fp16: 16
            tensor('packed', [10], 22), // int4: 5
          ],
        },
      });
      const file = join(dir, 'model.onnx');
      writeFileSync(file, Model.encode(model).finish());
      expect(inspectOnnxWeights(file)).toEqual({
        totalBytes: 3200 + 256 + 3200 + 128 + 16 + 5,
        bytesPerStep: 256 + 3200 + 128 + 16 + 5,
        gatherOnly: { embed: 3200 },
        ops: { Gather: 2, MatMul: 2, MatMulNBits: 1 },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
