// A Whisper model directory opened in a worker: its metadata, special tokens, feature
// extractor, encoder and merged decoder (shared by the engine and the test engine of the oracle
// spec, so both run exactly the same pieces).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineInit, EngineTypes } from '@tessera/runtime';
import { WhisperDecoder } from './whisper.decoder';
import { WhisperEncoder } from './whisper.encoder';
import { whisperFeatures, type WhisperFeatures } from './whisper.features';
import { whisperVocab, type WhisperGenerationConfig, type WhisperVocab } from './whisper.vocab';

interface WhisperConfig {
  readonly d_model: number;
  readonly decoder_layers: number;
  readonly decoder_attention_heads: number;
  readonly vocab_size: number;
  readonly num_mel_bins: number;
}

export interface LoadedWhisper {
  readonly vocab: WhisperVocab;
  readonly features: WhisperFeatures;
  readonly encoder: WhisperEncoder;
  readonly decoder: WhisperDecoder;
  readonly decoderOutputs: readonly string[];
}

export async function loadWhisper<T extends EngineTypes>(
  init: EngineInit<T>,
  settings: {
    readonly maxEncoderBatch: number;
    readonly maxDecoderBatch: number;
    readonly padding?: 'mel' | 'audio';
  },
): Promise<LoadedWhisper> {
  const json = async <J>(file: string): Promise<J> =>
    JSON.parse(await readFile(join(init.modelDir, file), 'utf8')) as J;
  const [config, generation, tokenizerJson, preprocessor] = await Promise.all([
    json<WhisperConfig>('config.json'),
    json<WhisperGenerationConfig>('generation_config.json'),
    json<{ added_tokens: { id: number; content: string }[] }>('tokenizer.json'),
    json<Record<string, unknown>>('preprocessor_config.json'),
  ]);
  const vocab = whisperVocab(tokenizerJson.added_tokens, generation, config.vocab_size);
  const features = await whisperFeatures(preprocessor, init.sessions, settings.padding);
  const encoderSession = await init.sessions.create(join('onnx', 'encoder_model.onnx'));
  const decoderSession = await init.sessions.create(join('onnx', 'decoder_model_merged.onnx'));
  const decoderOutputs = [...decoderSession.outputNames];
  const encoder = new WhisperEncoder(encoderSession, config.num_mel_bins, settings.maxEncoderBatch);
  const decoder = new WhisperDecoder(
    decoderSession,
    {
      layers: config.decoder_layers,
      heads: config.decoder_attention_heads,
      headSize: config.d_model / config.decoder_attention_heads,
      dModel: config.d_model,
      vocabSize: config.vocab_size,
      hasCrossAttentions: decoderOutputs.includes('cross_attentions.0'),
    },
    vocab.alignmentHeads,
    settings.maxDecoderBatch,
  );
  return { vocab, features, encoder, decoder, decoderOutputs };
}
