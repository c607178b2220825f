import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TINY_LLAMA, TINY_QWEN2 } from '../test/tiny-models';
import { readDecoderConfig } from './decoder.config';

describe('readDecoderConfig', () => {
  let dir: string;
  const write = (files: Record<string, unknown>) => {
    for (const [name, content] of Object.entries(files)) {
      writeFileSync(join(dir, name), JSON.stringify(content));
    }
  };
  const llama = {
    num_hidden_layers: 30,
    num_attention_heads: 9,
    num_key_value_heads: 3,
    hidden_size: 576,
    vocab_size: 49152,
    max_position_embeddings: 8192,
    eos_token_id: 0,
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'decoder-config-'));
    mkdirSync(join(dir, 'onnx'));
    writeFileSync(join(dir, 'onnx', 'model.onnx'), '');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [TINY_LLAMA, { kvHeads: 2, contextLength: 2048, eosTokenIds: [2] }],
    // Its end-of-sequence ids are a list.
    [TINY_QWEN2, { kvHeads: 1, contextLength: 4096, eosTokenIds: [2, 0] }],
  ])('reads %s', async (modelDir, expected) => {
    await expect(readDecoderConfig(modelDir)).resolves.toEqual({
      onnxFile: 'onnx/model.onnx',
      layers: 2,
      headSize: 16,
      vocabSize: 49152,
      ...expected,
    });
  });

  it('derives the head size and takes generation_config.json end-of-sequence ids first', async () => {
    write({ 'config.json': llama, 'generation_config.json': { eos_token_id: [2, 0, 2] } });
    const config = await readDecoderConfig(dir);
    expect(config).toMatchObject({ layers: 30, kvHeads: 3, headSize: 64, contextLength: 8192 });
    expect(config.eosTokenIds).toEqual([2, 0]);
  });

  it('falls back to config.json eos and to as many KV heads as attention heads', async () => {
    const { num_key_value_heads: _, ...mha } = llama;
    write({ 'config.json': { ...mha, head_dim: 32 } });
    const config = await readDecoderConfig(dir);
    expect(config).toMatchObject({ kvHeads: 9, headSize: 32, eosTokenIds: [0] });
  });

  it('finds an Optimum merged decoder when there is no onnx/model.onnx', async () => {
    rmSync(join(dir, 'onnx'), { recursive: true });
    writeFileSync(join(dir, 'decoder_model_merged.onnx'), '');
    write({ 'config.json': llama });
    await expect(readDecoderConfig(dir)).resolves.toMatchObject({
      onnxFile: 'decoder_model_merged.onnx',
    });
  });

  it('names what is missing', async () => {
    write({ 'config.json': { ...llama, eos_token_id: undefined } });
    await expect(readDecoderConfig(dir)).rejects.toThrow(/no eos_token_id|neither/);
    await expect(readDecoderConfig(dir, 'onnx/model_q4.onnx')).rejects.toThrow(
      /onnx\/model_q4\.onnx is missing/,
    );
  });

  it("reads a vision-language model's text_config and finds its merged decoder under onnx/", async () => {
    rmSync(join(dir, 'onnx', 'model.onnx'));
    writeFileSync(join(dir, 'onnx', 'decoder_model_merged.onnx'), '');
    const { eos_token_id: _eos, ...text } = llama;
    write({ 'config.json': { model_type: 'idefics3', eos_token_id: 49279, text_config: text } });
    expect(await readDecoderConfig(dir)).toEqual({
      onnxFile: 'onnx/decoder_model_merged.onnx',
      layers: 30,
      kvHeads: 3,
      headSize: 64,
      contextLength: 8192,
      vocabSize: 49152,
      eosTokenIds: [49279],
    });
  });
});
