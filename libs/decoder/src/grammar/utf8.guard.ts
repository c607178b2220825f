// Keeps a constrained output valid UTF-8, byte by byte. XGrammar's web build (0.1.27) lets a
// string's characters be byte sequences UTF-8 forbids — overlong E0 80…9F, surrogates ED A0…BF,
// F0 80…8F, F4 90…BF — which a byte-level model can emit token by token; the detokenizer then
// turns each stray byte into U+FFFD, and a string the grammar held to maxLength 12 comes out
// longer (or a pattern no longer matches). This stage follows the output's bytes and bans every
// token that would break the encoding (Unicode's well-formed byte sequences, table 3-7).
import type { LogitsProcessor } from '../sampling/logits-processor.contract';

/**
 * Where the output is inside a character: 0 between characters, otherwise
 * need << 16 | lowest << 8 | highest — the continuation bytes still owed and the range the next
 * one must fall in.
 */
type Utf8State = number;

const COMPLETE: Utf8State = 0;
const INVALID = -1;
const owing = (need: number, lowest: number, highest: number): Utf8State =>
  (need << 16) | (lowest << 8) | highest;

/** The state after one more byte, or INVALID. */
function step(state: Utf8State, byte: number): Utf8State {
  if (state === COMPLETE) {
    if (byte < 0x80) return COMPLETE;
    if (byte >= 0xc2 && byte <= 0xdf) return owing(1, 0x80, 0xbf);
    if (byte === 0xe0) return owing(2, 0xa0, 0xbf);
    if (byte === 0xed) return owing(2, 0x80, 0x9f);
    if (byte >= 0xe1 && byte <= 0xef) return owing(2, 0x80, 0xbf);
    if (byte === 0xf0) return owing(3, 0x90, 0xbf);
    if (byte >= 0xf1 && byte <= 0xf3) return owing(3, 0x80, 0xbf);
    if (byte === 0xf4) return owing(3, 0x80, 0x8f);
    return INVALID; // 80…C1 (a continuation or an overlong lead) and F5…FF
  }
  const need = state >> 16;
  if (byte < ((state >> 8) & 0xff) || byte > (state & 0xff)) return INVALID;
  return need === 1 ? COMPLETE : owing(need - 1, 0x80, 0xbf);
}

function run(state: Utf8State, bytes: Uint8Array): Utf8State {
  for (let i = 0; i < bytes.length && state !== INVALID; i++) state = step(state, bytes[i]);
  return state;
}

/** The vocabulary's bytes, read once per worker, shared by every sequence's guard. */
export class Utf8Vocabulary {
  /** Tokens whose bytes are not valid even right after a whole character. */
  private readonly invalidAlone: Int32Array;

  constructor(private readonly bytes: readonly Uint8Array[]) {
    const invalid: number[] = [];
    bytes.forEach((tokenBytes, id) => {
      if (run(COMPLETE, tokenBytes) === INVALID) invalid.push(id);
    });
    this.invalidAlone = Int32Array.from(invalid);
  }

  static fromTokens(count: number, bytesOf: (id: number) => readonly number[]): Utf8Vocabulary {
    return new Utf8Vocabulary(
      Array.from({ length: count }, (_, id) => Uint8Array.from(bytesOf(id))),
    );
  }

  guard(): Utf8Guard {
    return new Utf8Guard(this.bytes, this.invalidAlone);
  }
}

export class Utf8Guard implements LogitsProcessor {
  private state: Utf8State = COMPLETE;

  constructor(
    private readonly bytes: readonly Uint8Array[],
    private readonly invalidAlone: Int32Array,
  ) {}

  process(logits: Float32Array): void {
    if (this.state === COMPLETE) {
      // The common case: a short fixed list.
      for (const id of this.invalidAlone) if (id < logits.length) logits[id] = -Infinity;
      return;
    }
    // Inside a character (rare): the few tokens the grammar still allows are checked one by one.
    const count = Math.min(logits.length, this.bytes.length);
    for (let id = 0; id < count; id++) {
      if (logits[id] !== -Infinity && run(this.state, this.bytes[id]) === INVALID) {
        logits[id] = -Infinity;
      }
    }
  }

  accept(tokenId: number): void {
    const bytes = this.bytes[tokenId];
    if (bytes) this.state = run(this.state, bytes);
    // Only reachable through a token the stage banned: start over rather than ban everything.
    if (this.state === INVALID) this.state = COMPLETE;
  }
}
