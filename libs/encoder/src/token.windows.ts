// Long-input windowing for classifiers: a text longer than the model's context is split into
// overlapping token windows, each wrapped in the model's special tokens, and scored as the max
// over windows (classifier.scores.ts). Nothing is silently truncated: a text that would need
// more than `maxWindows` windows is refused. Pure; runs in the worker and in specs.

export interface TokenWindowing {
  /** Longest window, special tokens included (the model's maximum sequence length). */
  readonly maxTokens: number;
  /**
   * Tokens each window shares with the next, so a phrase across a cut is seen whole once; at
   * most half a window (more would only multiply the windows).
   */
  readonly overlap: number;
  /** Most windows one text may need; longer texts are refused, not cut. */
  readonly maxWindows: number;
}

export interface SpecialTokens {
  readonly prefix: readonly number[];
  readonly suffix: readonly number[];
}

/** Text tokens (special tokens excluded) per window, and the step from one window to the next. */
export function windowGeometry(
  windowing: TokenWindowing,
  specials: SpecialTokens,
): { body: number; stride: number } {
  const body = windowing.maxTokens - specials.prefix.length - specials.suffix.length;
  if (body < 1) throw new RangeError(`windows of ${windowing.maxTokens} tokens hold no text`);
  // Beyond half a window, overlap would multiply the windows a text needs for little gain.
  const stride = body - Math.min(windowing.overlap, Math.floor(body / 2));
  return { body, stride };
}

/** Most tokens (special tokens included) a text may have to fit `maxWindows` windows. */
export function maxWindowedTokens(windowing: TokenWindowing, specials: SpecialTokens): number {
  const { body, stride } = windowGeometry(windowing, specials);
  return (
    body + (windowing.maxWindows - 1) * stride + specials.prefix.length + specials.suffix.length
  );
}

/**
 * Splits `ids` (a whole text with its special tokens, as the tokenizer encodes it) into windows
 * of at most `maxTokens`. A text that fits is one window, exactly `ids`, so short texts score
 * as the model scores them unwindowed. Returns null when more than `maxWindows` are needed.
 */
export function tokenWindows(
  ids: readonly number[],
  windowing: TokenWindowing,
  specials: SpecialTokens,
): (readonly number[])[] | null {
  if (ids.length <= windowing.maxTokens) return [ids];
  const { prefix, suffix } = specials;
  const text = ids.slice(prefix.length, ids.length - suffix.length);
  const { body, stride } = windowGeometry(windowing, specials);
  const count = 1 + Math.ceil((text.length - body) / stride);
  if (count > windowing.maxWindows) return null;
  return Array.from({ length: count }, (_, i) => {
    // The last window ends at the text's end: a full window of context rather than a short
    // tail. (The fixtures' Python references window the same way; tools/fixtures.)
    const start = Math.min(i * stride, text.length - body);
    return [...prefix, ...text.slice(start, start + body), ...suffix];
  });
}

/**
 * The special tokens a tokenizer wraps every text in, found by encoding one word with and
 * without them. Empty when the tokenizer adds none (or they cannot be told apart).
 */
export function specialTokensOf(
  encode: (text: string, addSpecialTokens: boolean) => number[],
): SpecialTokens {
  const withSpecials = encode('hello', true);
  const plain = encode('hello', false);
  for (let at = 0; at + plain.length <= withSpecials.length; at++) {
    if (plain.every((id, i) => withSpecials[at + i] === id)) {
      return { prefix: withSpecials.slice(0, at), suffix: withSpecials.slice(at + plain.length) };
    }
  }
  return { prefix: [], suffix: [] };
}
