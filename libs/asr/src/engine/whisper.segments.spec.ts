import { splitWindow } from './whisper.segments';

const TB = 1000; // timestamp_begin
const ts = (seconds: number) => TB + Math.round(seconds / 0.02);

describe('splitWindow (openai-whisper transcribe: segments and seek)', () => {
  it('cuts at timestamp pairs and seeks to the last complete segment end', () => {
    const tokens = [ts(0), 1, 2, ts(2), ts(2), 3, ts(4.5), ts(4.5), 4, 5];
    const split = splitWindow(tokens, TB, 3000, 3000);
    expect(split.segments).toEqual([
      { start: 30, end: 32, tokens: [ts(0), 1, 2, ts(2)] },
      { start: 32, end: 34.5, tokens: [ts(2), 3, ts(4.5)] },
    ]);
    // The unfinished tail (4, 5) is decoded again from 34.5 s: 4.5 s = 450 frames.
    expect(split.advance).toBe(450);
    expect(split.kept).toBe(7);
  });

  it('keeps the last segment and moves a whole window when it ends on a single timestamp', () => {
    const tokens = [ts(0), 1, ts(1), ts(1), 2, ts(3)];
    const split = splitWindow(tokens, TB, 0, 2500);
    expect(split.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(split.advance).toBe(2500);
    expect(split.kept).toBe(6);
  });

  it('makes one segment of a window without a timestamp pair, ending at its last timestamp', () => {
    const split = splitWindow([ts(0), 1, 2, ts(5)], TB, 0, 3000);
    expect(split.segments).toEqual([{ start: 0, end: 5, tokens: [ts(0), 1, 2, ts(5)] }]);
    expect(split.advance).toBe(3000);
    const untimed = splitWindow([1, 2], TB, 100, 800);
    expect(untimed.segments[0]).toMatchObject({ start: 1, end: 9 });
  });
});
