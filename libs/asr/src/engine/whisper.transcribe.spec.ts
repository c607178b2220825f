// The window loop's policy with a scripted backend (the model runs are covered by
// whisper.model.spec.ts): fallback, silence skipping, conditioning, seeking, language.
import type { Tensor } from 'onnxruntime-node';
import { transcribeAudio, type WindowBackend } from './whisper.transcribe';
import type { WhisperVocab } from './whisper.vocab';
import type { WindowAsk, WindowDecoding } from './whisper.window';

const TB = 1000;
const ts = (seconds: number) => TB + Math.round(seconds / 0.02);
const vocab: WhisperVocab = {
  vocabSize: 2501,
  eot: 900,
  sot: 901,
  sotPrev: 902,
  transcribe: 903,
  translate: 904,
  noSpeech: 905,
  noTimestamps: TB - 1,
  timestampBegin: TB,
  multilingual: true,
  languages: new Map([
    ['en', 910],
    ['de', 911],
  ]),
  suppress: [],
  beginSuppress: [],
  alignmentHeads: [],
};

/** The first window's initial tokens for the prompt "hi" in detected German. */
const PROMPTED_HI_DE = [vocab.sotPrev, 104, 105, vocab.sot, 911, vocab.transcribe];

interface Call {
  readonly seek: number;
  readonly ask: WindowAsk;
}

function backend(script: (seek: number, ask: WindowAsk) => Partial<WindowDecoding>) {
  const calls: Call[] = [];
  let seek = 0;
  const api: WindowBackend = {
    vocab,
    encodeWindow: async (at) => {
      seek = at;
      return { encoder: {} as Tensor, frames: 3000 };
    },
    detectLanguage: async () => 'de',
    decode: async (_encoder, ask) => {
      calls.push({ seek, ask });
      const out = script(seek, ask);
      const tokens = out.tokens ?? [];
      return {
        tokens,
        ended: true,
        sumLogprob: 0,
        avgLogprob: -0.2,
        noSpeechProb: 0.01,
        temperature: ask.temperature,
        attentionRows: 0,
        ...out,
      };
    },
    // Text tokens spell themselves as " t<id>"; a loop is many repeats of one id.
    decodeText: (tokens) => tokens.map((t) => ` t${t}`).join(''),
    encodeText: (text) => [...text.trim()].map((c) => c.charCodeAt(0)),
  };
  return { api, calls };
}

const job = (seconds: number, extra: object = {}) => ({
  samples: seconds * 16000,
  task: 'transcribe' as const,
  temperature: 0,
  wordTimestamps: false,
  ...extra,
});

describe('transcribeAudio (openai-whisper transcribe())', () => {
  it('seeks each window to the last complete segment and numbers segments across windows', async () => {
    const { api, calls } = backend((seek) =>
      seek === 0
        ? { tokens: [ts(0), 1, ts(10), ts(10), 2, ts(26), ts(26), 3] } // tail "3" cut off
        : { tokens: [ts(0), 3, ts(8)] },
    );
    const segments: number[] = [];
    const out = await transcribeAudio(api, job(40, { language: 'en' }), {
      onSegment: (s) => segments.push(s.id),
    });
    expect(calls.map((c) => c.seek)).toEqual([0, 2600]);
    expect(out.segments.map((s) => [s.id, s.seek, s.start, s.end, s.text])).toEqual([
      [0, 0, 0, 10, ' t1'],
      [1, 0, 10, 26, ' t2'],
      [2, 2600, 26, 34, ' t3'],
    ]);
    expect(segments).toEqual([0, 1, 2]);
    // The second window is conditioned on the first's segments (timestamps included).
    expect(calls[1].ask.initial).toEqual([
      vocab.sotPrev,
      ts(0),
      1,
      ts(10),
      ts(10),
      2,
      ts(26),
      vocab.sot,
      910,
      vocab.transcribe,
    ]);
    expect(calls[1].ask.sotIndex).toBe(7);
    expect(out.language).toBe('en');
  });

  it('falls back to higher temperatures on a loop and on low confidence', async () => {
    const { api, calls } = backend((_seek, ask) =>
      ask.temperature === 0
        ? { tokens: [ts(0), ...new Array(60).fill(7), ts(5)] } // compresses > 2.4
        : ask.temperature < 0.3
          ? { tokens: [ts(0), 8, ts(5)], avgLogprob: -1.5 }
          : { tokens: [ts(0), 9, ts(5)] },
    );
    const out = await transcribeAudio(api, job(5, { language: 'en' }));
    expect(calls.map((c) => c.ask.temperature)).toEqual([0, 0.2, 0.4]);
    expect(out.segments).toHaveLength(1);
    expect(out.segments[0]).toMatchObject({ text: ' t9', temperature: 0.4 });
  });

  it('without fallback decodes each window once, at the job temperature, whatever its checks say', async () => {
    const { api, calls } = backend(() => ({ tokens: [ts(0), ...new Array(60).fill(7), ts(5)] }));
    const out = await transcribeAudio(api, job(5, { language: 'en' }), { fallback: false });
    expect(calls.map((c) => c.ask.temperature)).toEqual([0]);
    expect(out.segments).toHaveLength(1);
    expect(out.segments[0]).toMatchObject({ temperature: 0 });
  });

  it('skips a window that is probably silence and does not retry it', async () => {
    const { api, calls } = backend(() => ({
      tokens: [ts(0), 5, ts(1)],
      noSpeechProb: 0.9,
      avgLogprob: -1.2,
    }));
    const out = await transcribeAudio(api, job(5, { language: 'en' }));
    expect(calls).toHaveLength(1);
    expect(out.segments).toEqual([]);
  });

  it('detects the language once, conditions on the prompt, and stops conditioning after a hot window', async () => {
    const { api, calls } = backend((seek, ask) =>
      seek === 0 && ask.temperature < 0.6
        ? { tokens: [ts(0), 1, ts(30)], avgLogprob: -2 } // falls back up to 0.6
        : { tokens: [ts(0), 2, ts(5)] },
    );
    const out = await transcribeAudio(api, job(45, { prompt: '  hi ' }));
    expect(out.language).toBe('de');
    expect(calls[0].ask.initial).toEqual(PROMPTED_HI_DE);
    const second = calls.find((c) => c.seek > 0)!;
    // The first window was decoded at 0.6 (> 0.5): nothing before the second conditions it.
    expect(second.ask.initial).toEqual([vocab.sot, 911, vocab.transcribe]);
  });

  it('without conditioning prompts only the first window, with the job prompt', async () => {
    const { api, calls } = backend(() => ({ tokens: [ts(0), 2, ts(5)] }));
    await transcribeAudio(api, job(45, { prompt: 'hi' }), { conditionOnPreviousText: false });
    expect(calls[0].ask.initial).toEqual(PROMPTED_HI_DE);
    expect(calls.filter((c) => c.seek > 0).map((c) => c.ask.initial)).toEqual([
      [vocab.sot, 911, vocab.transcribe],
    ]);
  });

  it('with conditioning prompts the next window with the text before it', async () => {
    const { api, calls } = backend(() => ({ tokens: [ts(0), 2, ts(5)] }));
    await transcribeAudio(api, job(45, { language: 'en' }));
    expect(calls.find((c) => c.seek > 0)!.ask.initial).toEqual([
      vocab.sotPrev,
      ts(0),
      2,
      ts(5),
      vocab.sot,
      910,
      vocab.transcribe,
    ]);
  });

  it('stops between windows when the signal fires', async () => {
    const controller = new AbortController();
    const { api } = backend(() => {
      controller.abort();
      return { tokens: [ts(0), 1, ts(30)] };
    });
    await expect(
      transcribeAudio(api, job(90, { language: 'en' }), { signal: controller.signal }),
    ).rejects.toThrow();
  });
});
