// OpenAI's bounds on a speech request (CreateSpeechRequest), in one place for both sides of the
// Synthesize call: the gateway refuses them at the edge, the speech service re-checks what
// reaches it from any other caller.

/** At most this many characters of `input` (and of `instructions`). */
export const MAX_SPEECH_INPUT_CHARS = 4096;
export const MIN_SPEECH_SPEED = 0.25;
export const MAX_SPEECH_SPEED = 4;

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Characters as OpenAI counts them: code points (an emoji is one; JavaScript's length says 2). */
export function codePointLength(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/**
 * Whether `text` has more code points than MAX_SPEECH_INPUT_CHARS, without scanning a body far
 * longer than the limit (a request body can be megabytes): a code point is one or two UTF-16 units.
 */
export function exceedsSpeechInputChars(text: string): boolean {
  if (text.length <= MAX_SPEECH_INPUT_CHARS) return false;
  if (text.length > 2 * MAX_SPEECH_INPUT_CHARS) return true;
  return codePointLength(text) > MAX_SPEECH_INPUT_CHARS;
}
