// The ONNX graph of Whisper's log-mel (transformers' WhisperFeatureExtractor after framing):
// frames [N, nFft] → a DFT as one MatMul by a basis with the window folded in → power → mel
// filter bank → clamp 1e-10 → log10 → floor at (max − 8) → (x + 4) / 4 → [melBins, N].
// A 400-point DFT as a MatMul runs on ONNX Runtime's MLAS GEMM (a few ms per 30 s window), where
// the extractor's JS FFT on 400-point (not power-of-two) frames took ~165 ms.
//
// The graph is built here, per model, with npm `onnx-proto` (the protobuf types of onnx.proto)
// rather than committed as a file: the basis and the filters are initializers (the filters
// differ per model: 80 or 128 bins, from the extractor's own config), and a file would also have
// to be shipped beside the compiled code (the image copies dist/ only).
import { onnx } from 'onnx-proto';

export interface LogMelGraphSpec {
  /** The analysis window, nFft samples (the extractor's periodic Hann). */
  readonly window: ArrayLike<number>;
  /** The mel filter bank, [melBins][nFft / 2 + 1] (the extractor's `config.mel_filters`). */
  readonly melFilters: readonly (readonly number[])[];
}

export const LOGMEL_INPUT = 'frames';
export const LOGMEL_OUTPUT = 'log_mel';

/** The serialized model: input `frames` float [N, nFft], output `log_mel` float [melBins, N]. */
export function logMelGraph({ window, melFilters }: LogMelGraphSpec): Uint8Array {
  const nFft = window.length;
  const bins = Math.floor(nFft / 2) + 1;
  const melBins = melFilters.length;

  // basis[n, k] = w[n]·cos(2πkn/N), basis[n, bins + k] = w[n]·sin(2πkn/N): frames × basis gives
  // the real and imaginary parts side by side. The angle's index is reduced mod N first so the
  // double-precision cos/sin stay exact for large k·n.
  const basis = new Float32Array(nFft * 2 * bins);
  for (let n = 0; n < nFft; n += 1)
    for (let k = 0; k < bins; k += 1) {
      const angle = (2 * Math.PI * ((k * n) % nFft)) / nFft;
      basis[n * 2 * bins + k] = window[n] * Math.cos(angle);
      basis[n * 2 * bins + bins + k] = window[n] * Math.sin(angle);
    }
  // The squared parts times the filters stacked twice ([2·bins, melBins]) is (re² + im²) × filters:
  // the power and the filter bank in one MatMul.
  const filters = new Float32Array(2 * bins * melBins);
  for (let mel = 0; mel < melBins; mel += 1)
    for (let k = 0; k < bins; k += 1) {
      const weight = melFilters[mel][k];
      filters[k * melBins + mel] = weight;
      filters[(bins + k) * melBins + mel] = weight;
    }

  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const tensor = (name: string, dims: number[], data: Float32Array): onnx.ITensorProto => ({
    name,
    dims,
    dataType: FLOAT,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
  const scalar = (name: string, value: number) => tensor(name, [], Float32Array.of(value));
  const node = (
    opType: string,
    input: string[],
    output: string,
    attribute: onnx.IAttributeProto[] = [],
  ): onnx.INodeProto => ({ opType, input, output: [output], name: output, attribute });
  const ints = (name: string, values: number[]): onnx.IAttributeProto => ({
    name,
    ints: values,
    type: onnx.AttributeProto.AttributeType.INTS,
  });
  const int = (name: string, value: number): onnx.IAttributeProto => ({
    name,
    i: value,
    type: onnx.AttributeProto.AttributeType.INT,
  });
  const valueInfo = (name: string, dims: (number | string)[]): onnx.IValueInfoProto => ({
    name,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: {
          dim: dims.map((dim) => (typeof dim === 'number' ? { dimValue: dim } : { dimParam: dim })),
        },
      },
    },
  });

  const graph: onnx.IGraphProto = {
    name: 'whisper_log_mel',
    input: [valueInfo(LOGMEL_INPUT, ['frames', nFft])],
    output: [valueInfo(LOGMEL_OUTPUT, [melBins, 'frames'])],
    initializer: [
      tensor('basis', [nFft, 2 * bins], basis),
      tensor('filters', [2 * bins, melBins], filters),
      scalar('mel_floor', 1e-10),
      scalar('inv_ln10', 1 / Math.LN10),
      scalar('eight', 8),
      scalar('four', 4),
      scalar('quarter', 0.25),
    ],
    node: [
      node('MatMul', [LOGMEL_INPUT, 'basis'], 'spectrum'),
      node('Mul', ['spectrum', 'spectrum'], 'squares'),
      node('MatMul', ['squares', 'filters'], 'mel'),
      node('Max', ['mel', 'mel_floor'], 'clamped'),
      node('Log', ['clamped'], 'ln'),
      node('Mul', ['ln', 'inv_ln10'], 'log10'),
      // Over the whole window (all frames, all bins), as the extractor's max.
      node('ReduceMax', ['log10'], 'max', [int('keepdims', 1)]),
      node('Sub', ['max', 'eight'], 'threshold'),
      node('Max', ['log10', 'threshold'], 'floored'),
      node('Add', ['floored', 'four'], 'shifted'),
      node('Mul', ['shifted', 'quarter'], 'scaled'),
      node('Transpose', ['scaled'], LOGMEL_OUTPUT, [ints('perm', [1, 0])]),
    ],
  };
  return onnx.ModelProto.encode({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'tessera',
    graph,
  }).finish();
}
