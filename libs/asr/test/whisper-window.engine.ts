// A test engine (for whisper.oracle.spec.ts): the Whisper engine's pieces decoding ONE window
// greedily from given initial tokens, in a pool worker like the real engine (ONNX Runtime's
// tensors cannot be made inside jest's sandbox).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineFactory } from '@tessera/runtime';
import { WhisperDecoder } from '../src/engine/whisper.decoder';
import { WhisperEncoder } from '../src/engine/whisper.encoder';
import { whisperFeatures } from '../src/engine/whisper.features';
import { whisperVocab } from '../src/engine/whisper.vocab';
import { argmax, decodeWindow } from '../src/engine/whisper.window';

export interface WindowTypes {
  readonly options: Record<string, never>;
  readonly info: null;
  readonly request: {
    readonly audio: Float32Array;
    readonly initial: number[];
    readonly sotIndex: number;
    readonly timestamps: boolean;
  };
  readonly result: { readonly tokens: number[]; readonly detected: number };
  readonly chunk: never;
}

export const createEngine: EngineFactory<WindowTypes> = async (init) => {
  const json = async (file: string) =>
    JSON.parse(await readFile(join(init.modelDir, file), 'utf8'));
  const config = await json('config.json');
  const vocab = whisperVocab(
    (await json('tokenizer.json')).added_tokens,
    await json('generation_config.json'),
    config.vocab_size,
  );
  // transformers' generate sees the log-mel of zero-padded audio.
  const features = await whisperFeatures(await json('preprocessor_config.json'), 'audio');
  const encoder = new WhisperEncoder(
    await init.sessions.create('onnx/encoder_model.onnx'),
    config.num_mel_bins,
    1,
  );
  const session = await init.sessions.create('onnx/decoder_model_merged.onnx');
  const decoder = new WhisperDecoder(
    session,
    {
      layers: config.decoder_layers,
      heads: config.decoder_attention_heads,
      headSize: config.d_model / config.decoder_attention_heads,
      dModel: config.d_model,
      vocabSize: config.vocab_size,
      hasCrossAttentions: session.outputNames.includes('cross_attentions.0'),
    },
    vocab.alignmentHeads,
    4,
  );
  return {
    info: null,
    async run(request) {
      const window = await features.window(request.audio, 0);
      const hidden = await encoder.encode(window.features);
      const first = await decoder.step({ encoder: hidden, length: 0 }, [vocab.sot], false);
      const masked = new Float32Array(first.logits.length).fill(-Infinity);
      for (const id of vocab.languages.values()) masked[id] = first.logits[id];
      const decoded = await decodeWindow(decoder, vocab, hidden, {
        initial: request.initial,
        sotIndex: request.sotIndex,
        timestamps: request.timestamps,
        temperature: 0,
        attention: false,
        random: Math.random,
      });
      return {
        tokens: [...request.initial, ...decoded.tokens, vocab.eot],
        detected: argmax(masked),
      };
    },
  };
};
