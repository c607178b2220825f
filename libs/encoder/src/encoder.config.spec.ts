import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEncoderConfig } from './encoder.config';

const FIXTURES = join(__dirname, '../../../test/fixtures/models');
const ONNX = 'onnx/model.onnx';

describe('readEncoderConfig', () => {
  let dir: string;

  /** A copy of a fixture's metadata (not its graph) that a test may edit. */
  function copyOf(fixture: string): string {
    cpSync(join(FIXTURES, fixture), dir, {
      recursive: true,
      filter: (src) => !src.endsWith('.onnx'),
    });
    writeFileSync(join(dir, ONNX), '');
    return dir;
  }
  const writeJson = (file: string, value: unknown) =>
    writeFileSync(join(dir, file), JSON.stringify(value));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'encoder-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a sentence-transformers BERT export', async () => {
    await expect(readEncoderConfig(join(FIXTURES, 'tiny-bert'), ONNX)).resolves.toEqual({
      onnxPath: join(FIXTURES, 'tiny-bert', ONNX),
      dimensions: 32,
      vocabSize: 1500,
      maxTokens: 128,
      pooling: 'mean',
    });
  });

  it('reads CLS pooling and the max length of a RoBERTa export', async () => {
    await expect(
      readEncoderConfig(join(FIXTURES, 'tiny-roberta-cls'), ONNX),
    ).resolves.toMatchObject({ dimensions: 32, vocabSize: 1000, maxTokens: 64, pooling: 'cls' });
  });

  it('without sentence-transformers files: mean pooling, length from the position table', async () => {
    copyOf('tiny-roberta-cls');
    for (const file of ['modules.json', 'sentence_bert_config.json']) unlinkSync(join(dir, file));
    // The "no limit" placeholder transformers writes must not be taken as a length.
    writeJson('tokenizer_config.json', { model_max_length: 1e30 });
    // RoBERTa's 66 positions hold 64 tokens: ids start after pad_token_id (1).
    await expect(readEncoderConfig(dir, ONNX)).resolves.toMatchObject({
      maxTokens: 64,
      pooling: 'mean',
    });
  });

  it('never allows more tokens than the model has positions', async () => {
    copyOf('tiny-bert');
    writeJson('sentence_bert_config.json', { max_seq_length: 512 });
    await expect(readEncoderConfig(dir, ONNX)).resolves.toMatchObject({ maxTokens: 128 });
  });

  it('rejects pooling modes it cannot reproduce', async () => {
    copyOf('tiny-bert');
    writeJson('1_Pooling/config.json', { pooling_mode_max_tokens: true });
    await expect(readEncoderConfig(dir, ONNX)).rejects.toThrow(/unsupported pooling/);
  });

  it.each(['tokenizer.json', 'config.json', ONNX])(
    'rejects a directory without %s',
    async (file) => {
      copyOf('tiny-bert');
      unlinkSync(join(dir, file));
      await expect(readEncoderConfig(dir, ONNX)).rejects.toThrow(`${file} is missing`);
    },
  );

  it('names the field when config.json is not an encoder config', async () => {
    copyOf('tiny-bert');
    writeJson('config.json', { hidden_size: 32 });
    await expect(readEncoderConfig(dir, ONNX)).rejects.toThrow(/config\.json.*vocab_size/s);
  });
});
