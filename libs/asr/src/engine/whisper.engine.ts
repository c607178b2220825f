// Whisper as an engine of @tessera/runtime's worker pool. Each worker loads the model directory
// once (config, generation config, tokenizer, feature extractor, the encoder and the merged
// decoder) and runs whole transcriptions; with the pool's concurrency > 1 several jobs share the
// worker, their windows batched in the encoder and their same-step sequences in the decoder.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineFactory } from '@tessera/runtime';
import { loadLocalTokenizer } from '@tessera/text';
import type { Tensor } from 'onnxruntime-node';
import { alignWindowWords, type CrossAttentionWeights } from '../alignment';
import { WhisperDecoder } from './whisper.decoder';
import { WhisperEncoder } from './whisper.encoder';
import { whisperFeatures } from './whisper.features';
import type { WhisperEngineTypes } from './whisper.protocol';
import { transcribeAudio, type WindowBackend } from './whisper.transcribe';
import { whisperVocab, type WhisperGenerationConfig } from './whisper.vocab';
import { argmax, decodeWindow } from './whisper.window';

interface WhisperConfig {
  readonly d_model: number;
  readonly decoder_layers: number;
  readonly decoder_attention_heads: number;
  readonly vocab_size: number;
  readonly num_mel_bins: number;
}

const readJson = async <T>(dir: string, file: string): Promise<T> =>
  JSON.parse(await readFile(join(dir, file), 'utf8')) as T;

export const createEngine: EngineFactory<WhisperEngineTypes> = async (init) => {
  const dir = init.modelDir;
  const [config, generation, tokenizerJson, preprocessor] = await Promise.all([
    readJson<WhisperConfig>(dir, 'config.json'),
    readJson<WhisperGenerationConfig>(dir, 'generation_config.json'),
    readJson<{ added_tokens: { id: number; content: string }[] }>(dir, 'tokenizer.json'),
    readJson<Record<string, unknown>>(dir, 'preprocessor_config.json'),
  ]);
  const vocab = whisperVocab(tokenizerJson.added_tokens, generation, config.vocab_size);
  const tokenizer = await loadLocalTokenizer(dir);
  const features = await whisperFeatures(preprocessor);
  const encoderSession = await init.sessions.create(join('onnx', 'encoder_model.onnx'));
  const decoderSession = await init.sessions.create(join('onnx', 'decoder_model_merged.onnx'));
  const decoderOutputs = [...decoderSession.outputNames];
  const hasCrossAttentions = decoderOutputs.includes('cross_attentions.0');
  const encoder = new WhisperEncoder(
    encoderSession,
    config.num_mel_bins,
    init.options.maxEncoderBatch,
  );
  const decoder = new WhisperDecoder(
    decoderSession,
    {
      layers: config.decoder_layers,
      heads: config.decoder_attention_heads,
      headSize: config.d_model / config.decoder_attention_heads,
      dModel: config.d_model,
      vocabSize: config.vocab_size,
      hasCrossAttentions,
    },
    vocab.alignmentHeads,
    init.options.maxDecoderBatch,
  );
  const languageOf = new Map([...vocab.languages].map(([code, id]) => [id, code]));

  return {
    info: {
      multilingual: vocab.multilingual,
      languages: [...vocab.languages.keys()],
      wordTimestamps: hasCrossAttentions && vocab.alignmentHeads.length > 0,
      decoderOutputs,
    },
    async run(request, job) {
      const backend: WindowBackend = {
        vocab,
        async encodeWindow(seek) {
          const window = await features.window(request.audio, seek);
          job.signal.throwIfAborted();
          return {
            encoder: await encoder.encode(window.features, job.signal),
            frames: window.frames,
          };
        },
        async detectLanguage(hidden: Tensor) {
          // openai-whisper's detect_language: <|startoftranscript|> alone, the likeliest language token.
          const out = await decoder.step({ encoder: hidden, length: 0 }, [vocab.sot], false);
          const masked = new Float32Array(out.logits.length).fill(-Infinity);
          for (const id of languageOf.keys()) masked[id] = out.logits[id];
          return languageOf.get(argmax(masked))!;
        },
        decode: (hidden, ask) => decodeWindow(decoder, vocab, hidden, ask),
        decodeText: (tokens) => tokenizer.decode([...tokens], { skip_special_tokens: false }),
        encodeText: (text) => tokenizer.encode(text, { add_special_tokens: false }),
        align: (window) =>
          alignWindowWords({
            tokens: window.tokens,
            prefixLength: window.prefixLength,
            textEnd: window.textEnd,
            weights: joinHeads(window.attention, window.rows),
            numFrames: window.validFrames,
            timeOffset: window.offset,
            eot: vocab.eot,
            decode: (ids) => tokenizer.decode(ids, { skip_special_tokens: false }),
            language: window.language,
          }),
      };
      const transcript = await transcribeAudio(
        backend,
        { ...request, samples: request.audio.length },
        { signal: job.signal, onSegment: (segment) => job.emit({ segment }) },
      );
      job.emit({ transcript });
      return null;
    },
  };
};

/** The per-head [rows, frames] attention as the alignment's one [heads, rows, frames] array. */
function joinHeads(heads: readonly Float32Array[], rows: number): CrossAttentionWeights {
  const size = heads[0].length;
  const data = new Float32Array(size * heads.length);
  heads.forEach((head, index) => data.set(head, index * size));
  return { data, heads: heads.length, rows, frames: size / rows };
}
