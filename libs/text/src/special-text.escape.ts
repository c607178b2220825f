// Client text is tokenized as text, as OpenAI does: a special token written out in a message
// (`<|im_start|>`, `<|im_end|>`, `<image>`) must not become that token, or any client could
// forge a turn, a system prompt or an image slot. Python's apply_chat_template(tokenize=True)
// parses special tokens anywhere in the rendered string; here every client string is escaped
// before the chat template renders it, so that the only special tokens left to find in the
// rendering are the ones the template wrote, and `split` cuts the rendering at those.
//
// Escapes are noncharacters (U+FDD0–U+FDD2: never assigned, and never tokenized, since `split`
// removes them): a MARK after a character makes it text, never the start of a special token
// (so `<|im_end|>` becomes `<` MARK `|im_end|>`, which neither the scanner nor a plain
// `indexOf` in the rendering finds); a JOIN at a string's edge keeps two strings that the
// template puts side by side (text parts, a message and the template's own text) from spelling
// a token together; a client's own U+FDD0–U+FDD2 is kept as LITERAL and the character.

const JOIN = '\uFDD0';
const MARK = '\uFDD1';
const LITERAL = '\uFDD2';
const ESCAPES = `[${JOIN}${MARK}${LITERAL}]`;
const ESCAPE_SET = new Set([JOIN, MARK, LITERAL]);
const STRAY = new RegExp(`[${MARK}${LITERAL}]`, 'g');

/** A piece of the rendered prompt: a special token the template wrote, or text. */
export type PromptSection = { readonly special: string } | { readonly text: string };

export class SpecialTextEscape {
  /** The characters to mark in client text: escapes, and the start of any special token. */
  private readonly find: RegExp;
  /** What `split` reads: a marked character, a join, or a special token. */
  private readonly scan: RegExp;
  /** The special tokens alone. */
  private readonly tokens: RegExp;
  /** Proper prefixes and suffixes of the special tokens: what a string may end or start with. */
  private readonly heads = new Set<string>();
  private readonly tails = new Set<string>();
  private readonly longest: number;

  constructor(specialTokens: readonly string[]) {
    // Longest first: the alternation then matches leftmost-longest, as the tokenizer's splitter.
    const tokens = [...new Set(specialTokens)]
      .filter((t) => t.length > 0)
      .sort((a, b) => b.length - a.length);
    const alternatives = tokens.length > 0 ? tokens.map(escapeRegExp).join('|') : '(?!)';
    this.find = new RegExp(`${ESCAPES}|${alternatives}`, 'gu');
    // In this order: a literal, then a marked character, so neither is read as anything else.
    this.scan = new RegExp(
      `${LITERAL}([\\s\\S])|([\\s\\S])${MARK}|${JOIN}|(${alternatives})`,
      'gu',
    );
    this.tokens = new RegExp(alternatives, 'gu');
    for (const token of tokens) {
      for (let i = 1; i < token.length; i++) {
        this.heads.add(token.slice(0, i));
        this.tails.add(token.slice(i));
      }
    }
    this.longest = tokens.length > 0 ? tokens[0].length : 0;
  }

  /** The string as the template should see it; the same string when it needs no escape. */
  escape(text: string): string {
    if (this.longest === 0 || text.length === 0) return text;
    let out = '';
    let at = 0;
    this.find.lastIndex = 0;
    for (let match = this.find.exec(text); match !== null; match = this.find.exec(text)) {
      // Marked after its first code point, so a surrogate pair is never split by the mark.
      const first = String.fromCodePoint(text.codePointAt(match.index)!);
      const escaped = ESCAPE_SET.has(match[0]);
      out += text.slice(at, match.index) + (escaped ? LITERAL + first : first + MARK);
      at = match.index + first.length;
      // A token may start inside the one just marked: the search resumes after its first
      // character, as `split` will read it.
      this.find.lastIndex = at;
    }
    out += text.slice(at);
    if (this.startsWithTail(text)) out = JOIN + out;
    if (this.endsWithHead(text)) out += JOIN;
    return out;
  }

  /**
   * The rendering cut at the special tokens in it (the template's own, once client strings are
   * escaped), escapes removed from the text between them.
   */
  split(rendered: string): PromptSection[] {
    const sections: PromptSection[] = [];
    let text = '';
    let at = 0;
    // An escape left alone (by a template that sliced a string) is dropped, never text.
    const between = (end: number): string => rendered.slice(at, end).replace(STRAY, '');
    for (const match of rendered.matchAll(this.scan)) {
      const [, literal, marked, special] = match;
      text += between(match.index);
      at = match.index + match[0].length;
      if (special !== undefined) {
        if (text !== '') sections.push({ text });
        text = '';
        sections.push({ special });
      } else {
        text += literal ?? marked ?? '';
      }
    }
    text += between(rendered.length);
    if (text !== '') sections.push({ text });
    return sections;
  }

  /** How many special tokens a tokenizer splitting on them would find in plain text. */
  count(text: string): number {
    return this.longest === 0 ? 0 : [...text.matchAll(this.tokens)].length;
  }

  private startsWithTail(text: string): boolean {
    for (let i = 1; i < this.longest && i <= text.length; i++) {
      if (this.tails.has(text.slice(0, i))) return true;
    }
    return false;
  }

  private endsWithHead(text: string): boolean {
    for (let i = 1; i < this.longest && i <= text.length; i++) {
      if (this.heads.has(text.slice(text.length - i))) return true;
    }
    return false;
  }
}

/** The text of a split rendering, escapes removed: what the prompt reads as. */
export function sectionsText(sections: readonly PromptSection[]): string {
  return sections.map((s) => ('special' in s ? s.special : s.text)).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
