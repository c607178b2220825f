import type { InferenceSession } from 'onnxruntime-node';
import { probeFeeds } from './probe.feeds';

const tensor = (
  name: string,
  type: InferenceSession.TensorValueMetadata['type'],
  shape: (number | string)[],
): InferenceSession.ValueMetadata => ({ name, isTensor: true, type, shape });

describe('probeFeeds', () => {
  it('sizes a decoder step from the dimension names: past, new and total positions', () => {
    const feeds = probeFeeds(
      [
        tensor('input_ids', 'int64', ['batch_size', 'sequence_length']),
        tensor('attention_mask', 'int64', ['batch_size', 'past_sequence_length + sequence_length']),
        tensor('position_ids', 'int64', ['batch_size', 'sequence_length']),
        tensor('past_key_values.0.key', 'float32', ['batch_size', 2, 'past_sequence_length', 16]),
        tensor('use_cache_branch', 'bool', [1]),
      ],
      { sequence: 2, past: 3 },
    );
    expect(feeds.input_ids?.dims).toEqual([1, 2]);
    expect([...(feeds.attention_mask?.data as BigInt64Array)]).toEqual([1n, 1n, 1n, 1n, 1n]);
    expect([...(feeds.position_ids?.data as BigInt64Array)]).toEqual([3n, 4n]);
    expect(feeds['past_key_values.0.key']?.dims).toEqual([1, 2, 3, 16]);
    expect([...(feeds.use_cache_branch?.data as Uint8Array)]).toEqual([1]);
  });

  it("silences Piper's noise so both providers synthesise the same audio", () => {
    const feeds = probeFeeds(
      [
        tensor('input', 'int64', ['batch_size', 'phonemes']),
        tensor('input_lengths', 'int64', ['batch_size']),
        tensor('scales', 'float32', [3]),
      ],
      { sequence: 4, past: 0 },
    );
    expect([...(feeds.input_lengths?.data as BigInt64Array)]).toEqual([4n]);
    expect([...(feeds.scales?.data as Float32Array)]).toEqual([0, 1, 0]);
  });

  it('refuses a dimension it has no size for, naming it and the input', () => {
    expect(() =>
      probeFeeds([tensor('x', 'float32', ['mystery'])], { sequence: 1, past: 0 }),
    ).toThrow("no size for dimension 'mystery' of input 'x'");
  });
});
