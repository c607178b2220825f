// A window's sampled tokens cut into segments at consecutive timestamp pairs, and where the next
// window starts, as openai-whisper's transcribe() does: the next window seeks to the last
// complete segment's end timestamp, so speech cut off at the window's end is decoded again from
// its start in the next window (nothing lost, nothing repeated); a window that ends on a single
// timestamp (the speech ended, silence follows) or has no timestamp pair moves on a whole window.
import { TIME_PRECISION } from './whisper.logits';

/** Mel frames per timestamp step (0.02 s / 10 ms). */
const INPUT_STRIDE = 2;
const FRAMES_PER_SECOND = 100;

export interface TokenSegment {
  readonly start: number;
  readonly end: number;
  /** With the segment's timestamps. */
  readonly tokens: number[];
}

export interface WindowSplit {
  readonly segments: TokenSegment[];
  /** Mel frames to advance. */
  readonly advance: number;
  /** Sampled tokens the segments hold; the rest (a cut-off tail) is decoded again next window. */
  readonly kept: number;
}

/**
 * `seek`: the window's first frame; `segmentFrames`: its frames of real audio (≤ 3000).
 * Segment times are absolute seconds.
 */
export function splitWindow(
  tokens: readonly number[],
  timestampBegin: number,
  seek: number,
  segmentFrames: number,
): WindowSplit {
  const offset = seek / FRAMES_PER_SECOND;
  const isTimestamp = tokens.map((token) => token >= timestampBegin);
  const n = tokens.length;
  const singleTimestampEnding = n >= 2 && !isTimestamp[n - 2] && isTimestamp[n - 1];
  const slices: number[] = [];
  for (let i = 1; i < n; i += 1) if (isTimestamp[i - 1] && isTimestamp[i]) slices.push(i);
  const time = (token: number) => offset + (token - timestampBegin) * TIME_PRECISION;
  if (slices.length > 0) {
    if (singleTimestampEnding) slices.push(n);
    const segments: TokenSegment[] = [];
    let last = 0;
    for (const current of slices) {
      const sliced = tokens.slice(last, current);
      segments.push({
        start: time(sliced[0]),
        end: time(sliced[sliced.length - 1]),
        tokens: sliced,
      });
      last = current;
    }
    const advance = singleTimestampEnding
      ? segmentFrames
      : (tokens[last - 1] - timestampBegin) * INPUT_STRIDE;
    return { segments, advance, kept: last };
  }
  let duration = segmentFrames / FRAMES_PER_SECOND;
  const timestamps = tokens.filter((token) => token >= timestampBegin);
  const lastTimestamp = timestamps[timestamps.length - 1];
  if (lastTimestamp !== undefined && lastTimestamp !== timestampBegin)
    duration = (lastTimestamp - timestampBegin) * TIME_PRECISION;
  return {
    segments: [{ start: offset, end: offset + duration, tokens: [...tokens] }],
    advance: segmentFrames,
    kept: n,
  };
}
