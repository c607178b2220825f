import { hubFilesFor, onnxGraphsFor } from './model-files.selection';

// The shape of Xenova/all-MiniLM-L6-v2 and of sentence-transformers exports.
const MINILM = [
  '.gitattributes',
  'README.md',
  'config.json',
  'quantize_config.json',
  'special_tokens_map.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'vocab.txt',
  'modules.json',
  '1_Pooling/config.json',
  '1_Pooling/README.md',
  'pytorch_model.bin',
  'onnx/model.onnx',
  'onnx/model_fp16.onnx',
  'onnx/model_quantized.onnx',
  'onnx/model_q4.onnx',
  'onnx/model_q4f16.onnx',
  'openvino/openvino_model.xml',
];

// The shape of onnx-community/whisper-* exports.
const WHISPER = [
  'config.json',
  'generation_config.json',
  'preprocessor_config.json',
  'tokenizer.json',
  'onnx/encoder_model.onnx',
  'onnx/decoder_model.onnx',
  'onnx/decoder_with_past_model.onnx',
  'onnx/decoder_model_merged.onnx',
  'onnx/encoder_model_quantized.onnx',
  'onnx/decoder_model_merged_quantized.onnx',
];

describe('onnxGraphsFor', () => {
  it('picks the one graph of the dtype', () => {
    expect(onnxGraphsFor({}, MINILM)).toEqual(['onnx/model.onnx']);
    expect(onnxGraphsFor({ dtype: 'q8' }, MINILM)).toEqual(['onnx/model_quantized.onnx']);
    expect(onnxGraphsFor({ dtype: 'q4' }, MINILM)).toEqual(['onnx/model_q4.onnx']);
  });

  it('picks encoder and merged decoder of encoder-decoder models', () => {
    expect(onnxGraphsFor({}, WHISPER)).toEqual([
      'onnx/decoder_model_merged.onnx',
      'onnx/encoder_model.onnx',
    ]);
    expect(onnxGraphsFor({ dtype: 'q8' }, WHISPER)).toEqual([
      'onnx/decoder_model_merged_quantized.onnx',
      'onnx/encoder_model_quantized.onnx',
    ]);
  });

  it('finds nothing when the dtype or the file is not there', () => {
    expect(onnxGraphsFor({ dtype: 'bnb4' }, MINILM)).toEqual([]);
    expect(onnxGraphsFor({ file: 'onnx/other.onnx' }, MINILM)).toEqual([]);
  });
});

describe('hubFilesFor', () => {
  it('takes configs, vocabularies, module configs and the chosen graph only', () => {
    expect(hubFilesFor({ dtype: 'q8' }, MINILM)).toEqual({
      graphs: ['onnx/model_quantized.onnx'],
      files: [
        '1_Pooling/config.json',
        'config.json',
        'modules.json',
        'onnx/model_quantized.onnx',
        'quantize_config.json',
        'special_tokens_map.json',
        'tokenizer.json',
        'tokenizer_config.json',
        'vocab.txt',
      ],
    });
  });

  it('takes the external data of a graph', () => {
    const files = [
      ...MINILM,
      'onnx/model.onnx_data',
      'onnx/model.onnx_data_1',
      'onnx/model_fp16.onnx_data',
    ];
    expect(hubFilesFor({}, files).files.filter((file) => file.startsWith('onnx/'))).toEqual([
      'onnx/model.onnx',
      'onnx/model.onnx_data',
      'onnx/model.onnx_data_1',
    ]);
  });

  it('takes a Piper voice and its config from a repository of many voices', () => {
    const voices = [
      'voices.json',
      'en/en_US/amy/medium/en_US-amy-medium.onnx',
      'en/en_US/amy/medium/en_US-amy-medium.onnx.json',
      'en/en_US/amy/medium/MODEL_CARD',
      'en/en_US/lessac/high/en_US-lessac-high.onnx',
      'en/en_US/lessac/high/en_US-lessac-high.onnx.json',
    ];
    expect(
      hubFilesFor({ file: 'en/en_US/amy/medium/en_US-amy-medium.onnx' }, voices).files,
    ).toEqual([
      'en/en_US/amy/medium/en_US-amy-medium.onnx',
      'en/en_US/amy/medium/en_US-amy-medium.onnx.json',
      'voices.json',
    ]);
  });
});
