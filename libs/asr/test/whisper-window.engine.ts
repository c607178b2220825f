// A test engine (for whisper.oracle.spec.ts): the Whisper engine's pieces decoding ONE window
// greedily from given initial tokens, in a pool worker like the real engine (ONNX Runtime's
// tensors cannot be made inside jest's sandbox).
import type { EngineFactory } from '@tessera/runtime';
import { loadWhisper } from '../src/engine/whisper.load';
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
  // transformers' generate sees the log-mel of zero-padded audio.
  const { vocab, features, encoder, decoder } = await loadWhisper(init, {
    maxEncoderBatch: 1,
    maxDecoderBatch: 4,
    padding: 'audio',
  });
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
