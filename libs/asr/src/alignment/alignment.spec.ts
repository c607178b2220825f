// Checked against transformers (4.57.6) itself: alignment.reference.json holds its outputs on
// fixed pseudo-random inputs, made by
//   PYTHONPATH=tools/fixtures tools/fixtures/.venv/bin/python \
//     -m tessera_fixtures.alignment_reference > libs/asr/src/alignment/alignment.reference.json
//   npx prettier --write libs/asr/src/alignment/alignment.reference.json
// (tools/fixtures/tessera_fixtures/alignment_reference.py says which functions it calls).
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  alignWindowWords,
  combineTokensIntoWords,
  dynamicTimeWarping,
  medianFilterRows,
  tokenTimestamps,
} from './index';

interface Reference {
  /** NaN is null in JSON. */
  median: Array<{
    shape: number[];
    width: number;
    input: Array<number | null>;
    output: Array<number | null>;
  }>;
  dtw: Array<{ rows: number; cols: number; matrix: number[]; text: number[]; time: number[] }>;
  tokenTimestamps: Array<{
    heads: number;
    rows: number;
    frames: number;
    numFrames: number;
    prefixLength: number;
    tokens: number;
    weights: number[];
    times: number[];
  }>;
  words: {
    vocab: number[][];
    eot: number;
    cases: Array<{ language: string; tokens: number[]; words: string[]; indices: number[][] }>;
  };
}

const reference = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'alignment.reference.json'), 'utf8'),
) as Reference;

/** The toy vocabulary's decode: its bytes, invalid UTF-8 replaced as Python's errors="replace". */
const vocab = reference.words.vocab.map((bytes) => Uint8Array.from(bytes));
const decode = (ids: number[]): string =>
  new TextDecoder('utf-8').decode(
    Buffer.concat(ids.filter((id) => id < reference.words.eot).map((id) => vocab[id])),
  );

describe('alignment against transformers', () => {
  it.each(reference.median.map((c, i) => [i, c] as const))(
    'median filter, case %i: equal to _median_filter',
    (_, { shape, width, input, output }) => {
      const values = (list: Array<number | null>): number[] =>
        Array.from(Float32Array.from(list, (v) => v ?? NaN));
      const filtered = medianFilterRows(Float32Array.from(values(input)), shape.at(-1)!, width);
      expect(Array.from(filtered)).toEqual(values(output)); // NaN equals NaN here
    },
  );

  it.each(reference.dtw.map((c, i) => [i, c] as const))(
    'dynamic time warping, case %i: the same path as _dynamic_time_warping',
    (_, { rows, cols, matrix, text, time }) => {
      const pathFound = dynamicTimeWarping(matrix, rows, cols);
      expect(Array.from(pathFound.textIndices)).toEqual(text);
      expect(Array.from(pathFound.timeIndices)).toEqual(time);
    },
  );

  it.each(reference.tokenTimestamps.map((c, i) => [i, c] as const))(
    'token timestamps, case %i: equal to _extract_token_timestamps',
    (_, c) => {
      const times = tokenTimestamps({
        weights: {
          data: Float32Array.from(c.weights),
          heads: c.heads,
          rows: c.rows,
          frames: c.frames,
        },
        tokens: c.tokens,
        prefixLength: c.prefixLength,
        numFrames: c.numFrames,
      });
      expect(times).toHaveLength(c.times.length);
      times.forEach((time, i) => expect(time).toBeCloseTo(c.times[i], 6));
    },
  );

  it.each(reference.words.cases.map((c, i) => [i, c] as const))(
    'words, case %i: as _combine_tokens_into_words groups them',
    (_, c) => {
      const language = c.language === 'japanese' ? 'ja' : 'en';
      const words = combineTokensIntoWords(c.tokens, decode, reference.words.eot, language);
      expect(words.map((w) => w.word)).toEqual(c.words);
      expect(words.map((w) => w.indices)).toEqual(c.indices);
    },
  );
});

describe('alignWindowWords', () => {
  const eot = reference.words.eot;
  const SOT = eot + 1;
  const EN = eot + 2;
  const TRANSCRIBE = eot + 3;
  const timestamp = (seconds: number): number => eot + 10 + Math.round(seconds / 0.02);
  // <|sot|><|en|><|transcribe|> | <|0.00|> " Hello" "," " world" "." <|1.00|> <|eot|>
  const tokens = [SOT, EN, TRANSCRIBE, timestamp(0), 0, 1, 2, 3, timestamp(1), eot];
  const prefixLength = 3;
  const heads = 2;
  const frames = 100; // a padded window: only the first 60 hold audio
  const rows = tokens.length - 1;

  /** Attention where row r (r ≥ prefix) looks at frames [10 (r - 3), 10 (r - 2)): 0.2 s each. */
  function blockAttention(): Float32Array {
    const data = new Float32Array(heads * rows * frames);
    for (let h = 0; h < heads; h++) {
      for (let r = 0; r < rows; r++) {
        const from = r < prefixLength ? 0 : 10 * (r - prefixLength);
        for (let f = 0; f < frames; f++) {
          data[(h * rows + r) * frames + f] = f >= from && f < from + 10 ? 0.095 : 0.0005;
        }
      }
    }
    return data;
  }

  const input = {
    tokens,
    prefixLength,
    weights: { data: blockAttention(), heads, rows, frames },
    numFrames: 60,
    timeOffset: 30,
    eot,
    decode,
  };

  it('gives each word the span from its first token being predicted to its last', () => {
    // " Hello" is predicted by row 3 (0.0 s), "," by row 4; " world" by row 5 (0.4 s), "." by
    // row 6 and what follows "." by row 7 (0.8 s). Times are the window's, plus its offset.
    expect(alignWindowWords(input)).toEqual([
      { word: 'Hello,', start: 30, end: 30.4 },
      { word: 'world.', start: 30.4, end: 30.8 },
    ]);
  });

  it('leaves out the tokens from textEnd on (an unfinished segment)', () => {
    expect(alignWindowWords({ ...input, textEnd: 6 })).toEqual([
      { word: 'Hello,', start: 30, end: 30.4 },
    ]);
  });

  it('never lets a word span a timestamp token', () => {
    // " caf" <|0.40|> "é"-bytes: the timestamp ends the word, the bytes alone make no word.
    const split = [SOT, EN, TRANSCRIBE, timestamp(0), 10, timestamp(0.4), 11, 12, eot];
    const words = alignWindowWords({
      ...input,
      tokens: split,
      weights: { data: blockAttention(), heads, rows, frames },
    });
    expect(words.map((w) => w.word)).toEqual(['caf', 'é']);
  });

  it('refuses attention that does not fit the tokens', () => {
    expect(() =>
      alignWindowWords({ ...input, weights: { data: new Float32Array(10), heads, rows, frames } }),
    ).toThrow(/is not \[2, 9, 100\]/);
    expect(() =>
      alignWindowWords({ ...input, tokens: [...tokens, 0, 0], weights: input.weights }),
    ).toThrow(/9 attention rows for 12 tokens/);
  });

  it('a window that generated only eot has no words', () => {
    expect(
      alignWindowWords({
        ...input,
        tokens: [SOT, EN, TRANSCRIBE, eot],
        weights: { data: new Float32Array(heads * 3 * frames), heads, rows: 3, frames },
      }),
    ).toEqual([]);
  });
});
