import { parsePlacement } from './placement.parser';

const at =
  '2026-11-28 11:35:01.375 [V:onnxruntime:, session_state.cc:1385 VerifyEachNodeIsAssignedToAnEp]';
const LOG = [
  '2026-11-28 11:35:01.375 [I:onnxruntime:, transformer_memcpy.cc:393 AddCopyNode] Add MemcpyFromHost after input_ids for WebGpuExecutionProvider',
  '2026-11-28 11:35:01.375 [I:onnxruntime:, transformer_memcpy.cc:393 AddCopyNode] Add MemcpyToHost before /layer.0/Softmax_output_0 for WebGpuExecutionProvider',
  '2026-11-28 11:35:01.375 [V:onnxruntime:, session_state.cc:1377 VerifyEachNodeIsAssignedToAnEp] Node placements',
  `${at}  Node(s) placed on [WebGpuExecutionProvider]. Number of nodes: 4`,
  `${at}   MatMul (/layer.0/MatMul)`,
  `${at}   MatMul (/layer.1/MatMul)`,
  `${at}   MemcpyFromHost (Memcpy)`,
  `${at}   MemcpyToHost (Memcpy_token_2)`,
  `${at}  Node(s) placed on [CPUExecutionProvider]. Number of nodes: 2`,
  `${at}   Shape (/Shape)`,
  `${at}   Gather (/Gather)`,
  '2026-11-28 11:35:01.376 [W:onnxruntime:, session_state.cc:1397 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers',
  // A subgraph (an If branch) prints its own placement, summed into the same providers.
  '2026-11-28 11:35:01.377 [V:onnxruntime:, session_state.cc:1377 VerifyEachNodeIsAssignedToAnEp] Node placements',
  `${at}  Node(s) placed on [CPUExecutionProvider]. Number of nodes: 1`,
  `${at}   Shape (/then/Shape)`,
  '2026-11-28 11:35:01.378 [I:onnxruntime:, inference_session.cc:3094 Initialize] Session successfully initialized.',
].join('\n');

describe('parsePlacement', () => {
  it('counts the nodes of each provider by op type, over the graph and its subgraphs', () => {
    const placement = parsePlacement(LOG);
    expect(placement.providers).toEqual([
      {
        provider: 'WebGpuExecutionProvider',
        nodes: 4,
        opTypes: { MatMul: 2, MemcpyFromHost: 1, MemcpyToHost: 1 },
      },
      { provider: 'CPUExecutionProvider', nodes: 3, opTypes: { Shape: 2, Gather: 1 } },
    ]);
  });

  it('counts the copies ORT inserted in each direction', () => {
    expect(parsePlacement(LOG)).toMatchObject({
      memcpyFromHost: 1,
      memcpyToHost: 1,
      toHostTensors: ['/layer.0/Softmax_output_0'],
    });
  });

  it('takes the node count of a graph placed whole on one provider, whose nodes ORT does not list', () => {
    const log = `2026-11-28 11:40:02.014 [V:onnxruntime:, session_state.cc:1380 VerifyEachNodeIsAssignedToAnEp]  All nodes placed on [WebGpuExecutionProvider]. Number of nodes: 1`;
    expect(parsePlacement(log).providers).toEqual([
      { provider: 'WebGpuExecutionProvider', nodes: 1, opTypes: {} },
    ]);
  });

  it('finds nothing in a log without a placement dump', () => {
    expect(parsePlacement('Session successfully initialized.')).toEqual({
      providers: [],
      memcpyFromHost: 0,
      memcpyToHost: 0,
      toHostTensors: [],
    });
  });
});
