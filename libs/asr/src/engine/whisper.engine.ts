// Whisper as an engine of @tessera/runtime's worker pool. Each worker loads the model directory
// once (config, generation config, tokenizer, feature extractor, the encoder and the merged
// decoder) and runs whole transcriptions; with the pool's concurrency > 1 several jobs share the
// worker, their windows batched in the encoder and their same-step sequences in the decoder.
import { Convoy, type EngineFactory } from '@tessera/runtime';
import { loadLocalTokenizer } from '@tessera/text';
import type { Tensor } from 'onnxruntime-node';
import { alignWindowWords, type CrossAttentionWeights } from '../alignment';
import { loadWhisper } from './whisper.load';
import type { WhisperEngineTypes } from './whisper.protocol';
import { tokenText } from './whisper.text';
import { transcribeAudio, type WindowBackend } from './whisper.transcribe';
import { argmax, decodeWindow } from './whisper.window';

export const createEngine: EngineFactory<WhisperEngineTypes> = async (init) => {
  const { vocab, features, encoder, decoder, decoderOutputs } = await loadWhisper(
    init,
    init.options,
  );
  const tokenizer = await loadLocalTokenizer(init.modelDir);
  const hasCrossAttentions = decoder.graph.hasCrossAttentions;
  const languageOf = new Map([...vocab.languages].map(([code, id]) => [id, code]));
  // Windows of concurrent jobs whose features are computed at about the same time go to the
  // encoder together (one batch), and their decoding then runs in step.
  const featuresStage = new Convoy(init.options.batchGatherMs);

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
          const stage = featuresStage.enter();
          const window = await features.window(request.audio, seek).catch((error: unknown) => {
            stage.leave();
            throw error;
          });
          await stage.arrive();
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
        decodeText: (tokens) => tokenText(tokenizer, tokens),
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
            decode: (ids) => tokenText(tokenizer, ids),
            language: window.language,
          }),
      };
      const transcript = await transcribeAudio(
        backend,
        { ...request, samples: request.audio.length },
        {
          signal: job.signal,
          onSegment: (segment) => job.emit({ segment }),
          fallback: init.options.temperatureFallback,
          conditionOnPreviousText: init.options.conditionOnPreviousText,
        },
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
