// transformers.js names each quantisation of a graph with a suffix (onnx/model_quantized.onnx is
// the q8 build of onnx/model.onnx); exports from onnx-community and Xenova follow the same table.
export const DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4'] as const;

export type Dtype = (typeof DTYPES)[number];

export const DEFAULT_DTYPE: Dtype = 'fp32';

export const DTYPE_FILE_SUFFIXES: Readonly<Record<Dtype, string>> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

/**
 * What picks a model's ONNX file: the two fields of a ModelSpec that name it (declared here, not
 * taken from ModelSpec, so that model-spec.ts, which takes Dtype from this file, is not imported
 * back).
 */
export interface OnnxFileChoice {
  readonly file?: string;
  readonly dtype?: Dtype;
}

/**
 * The ONNX file (relative to the model directory) holding graph `baseName` of a model:
 * the explicit `file` when the models file names one, else `onnx/<baseName><dtype suffix>.onnx`.
 */
export function onnxFileFor(spec: OnnxFileChoice, baseName = 'model'): string {
  if (spec.file !== undefined) return spec.file;
  return `onnx/${baseName}${DTYPE_FILE_SUFFIXES[spec.dtype ?? DEFAULT_DTYPE]}.onnx`;
}

/** The dtype a file under `onnx/` was exported with, judged by its name's suffix. */
export function dtypeOfOnnxFile(fileName: string): Dtype {
  const stem = fileName.replace(/\.onnx$/, '');
  const quantised = DTYPES.find(
    (dtype) => dtype !== 'fp32' && stem.endsWith(DTYPE_FILE_SUFFIXES[dtype]),
  );
  return quantised ?? 'fp32';
}
