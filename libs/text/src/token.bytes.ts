// The exact UTF-8 bytes of one vocabulary token, for OpenAI logprobs' `token` and `bytes`. A token
// alone is not always text: byte-level BPE (GPT-2, Llama 3, Qwen, SmolLM2) spells bytes as
// printable stand-in characters, and SentencePiece models with byte fallback (Llama 2, Mistral,
// Gemma) have `<0xAB>` tokens; either may hold part of a multi-byte character. The tokenizer's
// own decoder cannot say which bytes a lone token is (it replaces a partial character with
// U+FFFD), so the bytes are read from the token string by the rules its decoder applies.

/** The parts of tokenizer.json that decide how a token string maps to bytes. */
export interface TokenizerJson {
  readonly model?: { readonly byte_fallback?: boolean };
  readonly decoder?: unknown;
}

/** GPT-2's bytes_to_unicode, reversed: stand-in character → byte. */
function byteLevelDecoder(): Map<string, number> {
  const printable: number[] = [];
  const ranges: [number, number][] = [
    [0x21, 0x7e],
    [0xa1, 0xac],
    [0xae, 0xff],
  ];
  for (const [from, to] of ranges) for (let b = from; b <= to; b++) printable.push(b);
  const map = new Map<string, number>();
  let next = 0;
  for (let b = 0; b < 256; b++) {
    const code = printable.includes(b) ? b : 256 + next++;
    map.set(String.fromCodePoint(code), b);
  }
  return map;
}

/** Every decoder step's `type`, a Sequence's steps included, with the step itself. */
function decoderSteps(decoder: unknown): { type: string; [key: string]: unknown }[] {
  if (decoder === null || typeof decoder !== 'object') return [];
  const step = decoder as { type: string; decoders?: unknown[] };
  if (step.type === 'Sequence') return (step.decoders ?? []).flatMap(decoderSteps);
  return [step];
}

const BYTE_TOKEN = /^<0x([0-9A-Fa-f]{2})>$/;
const SPACE_MARKER = '\u2581';
const utf8 = new TextEncoder();
// ignoreBOM: a U+FEFF token is text like any other (a decoder would otherwise drop it).
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class TokenBytes {
  private readonly byteDecoder?: Map<string, number>;
  private readonly byteFallback: boolean;
  private readonly spaceMarker: boolean;

  constructor(
    json: TokenizerJson,
    /** Added tokens (special or not): their content is their text, never byte-mapped. */
    private readonly addedTokens: ReadonlyMap<number, string>,
    private readonly idToToken: (id: number) => string | undefined,
  ) {
    const steps = decoderSteps(json.decoder);
    if (steps.some((step) => step.type === 'ByteLevel')) this.byteDecoder = byteLevelDecoder();
    this.byteFallback =
      json.model?.byte_fallback === true || steps.some((step) => step.type === 'ByteFallback');
    this.spaceMarker = steps.some(
      (step) =>
        step.type === 'Metaspace' ||
        (step.type === 'Replace' &&
          (step.pattern as { String?: string } | undefined)?.String === SPACE_MARKER),
    );
  }

  /** Byte-level BPE: a sequence's text is exactly the UTF-8 decode of its tokens' bytes. */
  get byteLevel(): boolean {
    return this.byteDecoder !== undefined;
  }

  /**
   * Whether `id` names a token. Exports may give the logits more rows than the tokenizer has
   * tokens (Qwen2 pads 151,665 tokens to 151,936 rows), and a model can still pick such an id.
   */
  has(id: number): boolean {
    return this.addedTokens.has(id) || this.idToToken(id) !== undefined;
  }

  /** The token's bytes; none for an id with no token (Python's decode skips those too). */
  bytes(id: number): number[] {
    const added = this.addedTokens.get(id);
    if (added !== undefined) return [...utf8.encode(added)];
    const token = this.idToToken(id);
    if (token === undefined) return [];
    const byte = this.byteFallback ? BYTE_TOKEN.exec(token) : null;
    if (byte) return [parseInt(byte[1], 16)];
    const out: number[] = [];
    for (const char of token) {
      const mapped = this.byteDecoder?.get(char);
      if (mapped !== undefined) out.push(mapped);
      else if (this.spaceMarker && char === SPACE_MARKER) out.push(0x20);
      else out.push(...utf8.encode(char));
    }
    return out;
  }

  /**
   * The token's bytes as text; a token that is only part of a character is shown as OpenAI shows
   * such tokens, `bytes:` followed by `\xNN` escapes (the `bytes` field carries the real bytes).
   */
  info(id: number): { token: string; bytes: number[] } {
    const bytes = this.bytes(id);
    try {
      return { token: strictUtf8.decode(new Uint8Array(bytes)), bytes };
    } catch {
      const escaped = bytes.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
      return { token: `bytes:${escaped}`, bytes };
    }
  }
}
