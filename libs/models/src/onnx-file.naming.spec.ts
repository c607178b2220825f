import { dtypeOfOnnxFile, onnxFileFor } from './onnx-file.naming';

describe('onnxFileFor', () => {
  it.each([
    [undefined, 'onnx/model.onnx'],
    ['fp32', 'onnx/model.onnx'],
    ['fp16', 'onnx/model_fp16.onnx'],
    ['q8', 'onnx/model_quantized.onnx'],
    ['int8', 'onnx/model_int8.onnx'],
    ['uint8', 'onnx/model_uint8.onnx'],
    ['q4', 'onnx/model_q4.onnx'],
    ['q4f16', 'onnx/model_q4f16.onnx'],
    ['bnb4', 'onnx/model_bnb4.onnx'],
  ] as const)('maps dtype %s to %s', (dtype, file) => {
    expect(onnxFileFor(dtype === undefined ? {} : { dtype })).toBe(file);
  });

  it('names other graphs of the same dtype', () => {
    expect(onnxFileFor({ dtype: 'q4' }, 'decoder_model_merged')).toBe(
      'onnx/decoder_model_merged_q4.onnx',
    );
  });

  it('prefers the explicit file', () => {
    expect(onnxFileFor({ file: 'en_US-amy-medium.onnx' }, 'encoder_model')).toBe(
      'en_US-amy-medium.onnx',
    );
  });
});

describe('dtypeOfOnnxFile', () => {
  it.each([
    ['model.onnx', 'fp32'],
    ['decoder_model_merged.onnx', 'fp32'],
    ['model_quantized.onnx', 'q8'],
    ['model_uint8.onnx', 'uint8'],
    ['model_int8.onnx', 'int8'],
    ['model_q4.onnx', 'q4'],
    ['model_q4f16.onnx', 'q4f16'],
    ['vision_encoder_fp16.onnx', 'fp16'],
  ])('reads %s as %s', (file, dtype) => {
    expect(dtypeOfOnnxFile(file)).toBe(dtype);
  });
});
