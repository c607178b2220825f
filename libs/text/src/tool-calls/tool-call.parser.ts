// One choice's output, streamed, split into content and tool calls (OpenAI's delta shape): the
// first delta of a call carries its id and name with `arguments: ''`, later ones append the
// arguments' JSON text as the model writes it. Markup of a call never reaches content: text that
// may still become a trigger ('<tool_c…') is held back until it is known not to be one.
//
// What a model writes inside a call is JSON `{"name": "…", "arguments": {…}}`; the grammar
// forces exactly that once a call is open, so the cases below are for unconstrained output
// (tool_choice with no grammar, or a model writing calls in its own way):
// - the keys in another order, or other keys first: the object is read whole and emitted as one
//   delta when it closes, if it parses into a string `name` and an object of arguments;
// - anything that is not such an object: the section's text (markup included) is returned as
//   content, unchanged — nothing the model wrote is lost and no call is invented;
// - the output ends inside a call (max_tokens): a call whose name was read stays, with the
//   arguments written so far (the finish reason says 'length'); the markup of a call cut off
//   before its name is dropped — with a grammar it is certain to be markup, and content never
//   shows markup.
import { randomBytes } from 'node:crypto';
import type { ToolCallSyntax } from './tool-call.formats';

export type ToolCallParserEvent =
  | { readonly type: 'content'; readonly text: string }
  | {
      readonly type: 'tool_call';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly arguments: string;
    };

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `call_` and 24 random alphanumerics, the shape OpenAI's ids have. */
export function newToolCallId(): string {
  const bytes = randomBytes(24);
  let id = 'call_';
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

const WHITESPACE = /\s/;

/** Where a call object's head `{"name": "…", "arguments":` is read, one step per token. */
type HeadStep = '{' | 'name-key' | ':' | 'name' | ',' | 'args-key';
const HEAD: readonly HeadStep[] = ['{', 'name-key', ':', 'name', ',', 'args-key', ':'];

/** JSON nesting outside strings, enough to find where a value or object ends. */
class JsonScan {
  depth = 0;
  private inString = false;
  private escaped = false;

  /** Feeds one character; returns whether it was outside any string. */
  step(char: string): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (char === '\\') this.escaped = true;
      else if (char === '"') this.inString = false;
      return false;
    }
    if (char === '"') this.inString = true;
    else if (char === '{' || char === '[') this.depth += 1;
    else if (char === '}' || char === ']') this.depth -= 1;
    return true;
  }

  get stringOpen(): boolean {
    return this.inString;
  }
}

type State =
  | { kind: 'text' }
  /** After the trigger: the format's `open` markup, then a call object. */
  | { kind: 'open'; matched: number }
  | { kind: 'before-call' }
  | { kind: 'head'; step: number; literal: string; name: string; escaped: boolean }
  | { kind: 'arguments'; scan: JsonScan; started: boolean; primitive: boolean }
  | { kind: 'tail'; scan: JsonScan }
  /** A call object that does not start as expected: read whole, then judged. */
  | { kind: 'raw'; scan: JsonScan; text: string }
  | { kind: 'after-call'; matched: number };

export class ToolCallParser {
  private state: State = { kind: 'text' };
  /** Text that may be the start of a trigger. */
  private held = '';
  /**
   * Whitespace right after a section ('\n' between two <tool_call> blocks): content only if
   * text follows it, so calls alone leave no content.
   */
  private gap = '';
  private afterSection = false;
  /** The section's text so far, returned as content if it turns out not to be calls. */
  private section = '';
  /** Calls already emitted in this section (its text is then never content). */
  private sectionCalls = 0;
  /** Where the current call object starts in `section`. */
  private objectStart = 0;
  private count = 0;
  private out: ToolCallParserEvent[] = [];

  constructor(
    private readonly syntax: ToolCallSyntax,
    private readonly newId: () => string = newToolCallId,
  ) {}

  /** Calls found so far. */
  get calls(): number {
    return this.count;
  }

  push(text: string): ToolCallParserEvent[] {
    for (const char of text) this.step(char);
    if (this.state.kind === 'text') this.releaseHeld();
    return this.drain();
  }

  /** The end of the output: what was held back, and what an unfinished section comes to. */
  finish(): ToolCallParserEvent[] {
    const state = this.state;
    if (state.kind === 'text') {
      // Right after a call, a held '<tool_ca' is the next call's markup cut off: dropped.
      if (this.held !== '' && !this.afterSection) this.content(this.gap + this.held);
      this.held = '';
      this.gap = '';
    }
    // Inside a section, whatever its state: a call whose name was read stays as it is; what was
    // written of one before its name is markup cut off by max_tokens, and is dropped.
    this.section = '';
    this.state = { kind: 'text' };
    return this.drain();
  }

  private step(char: string): void {
    const state = this.state;
    if (state.kind !== 'text') this.section += char;
    switch (state.kind) {
      case 'text':
        return this.text(char);
      case 'open':
        return this.open(state, char);
      case 'before-call':
        if (WHITESPACE.test(char)) return;
        if (char === '{') return this.startCall(char);
        return this.abandonSection(char);
      case 'head':
        return this.head(state, char);
      case 'arguments':
        return this.argumentsChar(state, char);
      case 'tail':
        state.scan.step(char);
        if (state.scan.depth === 0) this.state = { kind: 'after-call', matched: 0 };
        return;
      case 'raw':
        return this.raw(state, char);
      case 'after-call':
        return this.afterCall(state, char);
    }
  }

  private text(char: string): void {
    if (this.afterSection && this.held === '' && WHITESPACE.test(char)) {
      this.gap += char;
      return;
    }
    this.held += char;
    for (const trigger of this.syntax.triggers) {
      if (!this.held.endsWith(trigger.text)) continue;
      this.release(this.held.slice(0, this.held.length - trigger.text.length));
      this.held = '';
      this.gap = '';
      this.sectionCalls = 0;
      if (trigger.inCall) {
        // The trigger is the call's own start: read again as such (step() records it).
        this.section = '';
        this.state = { kind: 'before-call' };
        for (const inner of trigger.text) this.step(inner);
      } else {
        this.section = trigger.text;
        this.state = { kind: 'open', matched: 0 };
        if (this.syntax.open === '') this.state = { kind: 'before-call' };
      }
      return;
    }
  }

  /** Emits the held text except its longest suffix that may still become a trigger. */
  private releaseHeld(): void {
    let keep = 0;
    for (const { text } of this.syntax.triggers) {
      for (let length = Math.min(text.length - 1, this.held.length); length > keep; length--) {
        if (this.held.endsWith(text.slice(0, length))) {
          keep = length;
          break;
        }
      }
    }
    this.release(this.held.slice(0, this.held.length - keep));
    this.held = this.held.slice(this.held.length - keep);
  }

  /** Text that is content, after the whitespace gap it follows. */
  private release(text: string): void {
    if (text === '') return;
    this.content(this.gap + text);
    this.gap = '';
    this.afterSection = false;
  }

  private endSection(): void {
    this.section = '';
    this.afterSection = true;
    this.state = { kind: 'text' };
  }

  private open(state: { matched: number }, char: string): void {
    if (state.matched === 0 && WHITESPACE.test(char)) return;
    if (char !== this.syntax.open[state.matched]) return this.abandonSection();
    state.matched += 1;
    if (state.matched === this.syntax.open.length) this.state = { kind: 'before-call' };
  }

  private startCall(char: string): void {
    this.objectStart = this.section.length - 1;
    this.state = { kind: 'head', step: 0, literal: '', name: '', escaped: false };
    this.head(this.state, char);
  }

  /** The head `{"name": "…", "arguments":`, whitespace allowed between its tokens. */
  private head(state: Extract<State, { kind: 'head' }>, char: string): void {
    const step = HEAD[state.step];
    if (step === 'name') return this.nameChar(state, char);
    if (state.literal === '' && WHITESPACE.test(char)) return;
    const literals =
      step === 'name-key'
        ? ['"name"']
        : step === 'args-key'
          ? ['"arguments"', '"parameters"']
          : [step];
    const next = state.literal + char;
    if (!literals.some((literal) => literal.startsWith(next))) return this.toRaw();
    state.literal = next;
    if (!literals.includes(next)) return;
    state.literal = '';
    state.step += 1;
    if (state.step < HEAD.length) return;
    this.count += 1;
    this.sectionCalls += 1;
    this.call({ id: this.newId(), name: state.name, arguments: '' });
    this.state = { kind: 'arguments', scan: new JsonScan(), started: false, primitive: false };
  }

  /** The name string, kept as JSON text until its closing quote, then decoded. */
  private nameChar(state: Extract<State, { kind: 'head' }>, char: string): void {
    if (state.literal === '') {
      if (WHITESPACE.test(char)) return;
      if (char !== '"') return this.toRaw();
      state.literal = '"';
      return;
    }
    state.literal += char;
    if (state.escaped) {
      state.escaped = false;
    } else if (char === '\\') {
      state.escaped = true;
    } else if (char === '"') {
      state.name = JSON.parse(state.literal) as string;
      state.literal = '';
      state.step += 1;
    }
  }

  /** The arguments value, streamed as it comes; a bare string or number ends at ',' or '}'. */
  private argumentsChar(state: Extract<State, { kind: 'arguments' }>, char: string): void {
    if (!state.started) {
      if (WHITESPACE.test(char)) return;
      state.started = true;
      state.primitive = char !== '{' && char !== '[' && char !== '"';
    }
    if (state.primitive && (char === ',' || char === '}')) {
      return this.toTail(char);
    }
    state.scan.step(char);
    this.call({ arguments: char });
    if (!state.primitive && state.scan.depth === 0 && !state.scan.stringOpen) {
      this.state = { kind: 'tail', scan: Object.assign(new JsonScan(), { depth: 1 }) };
    }
  }

  /** The rest of the call object after its arguments (other keys, the closing brace): dropped. */
  private toTail(char: string): void {
    const scan = new JsonScan();
    scan.depth = 1;
    this.state = { kind: 'tail', scan };
    this.section = this.section.slice(0, -1);
    this.step(char);
  }

  private toRaw(): void {
    const text = this.section.slice(this.objectStart);
    const scan = new JsonScan();
    for (const char of text) scan.step(char);
    this.state = { kind: 'raw', scan, text };
    if (scan.depth === 0) this.judgeRaw(text);
  }

  private raw(state: Extract<State, { kind: 'raw' }>, char: string): void {
    state.text += char;
    state.scan.step(char);
    if (state.scan.depth === 0) this.judgeRaw(state.text);
  }

  /** A whole object read out of order: a call if it has a name and an arguments object. */
  private judgeRaw(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.abandonSection();
    }
    const call = value as { name?: unknown; arguments?: unknown; parameters?: unknown };
    const args = call.arguments ?? call.parameters;
    if (
      typeof call.name !== 'string' ||
      args === null ||
      typeof args !== 'object' ||
      Array.isArray(args)
    ) {
      return this.abandonSection();
    }
    this.count += 1;
    this.sectionCalls += 1;
    this.call({ id: this.newId(), name: call.name, arguments: JSON.stringify(args) });
    this.state = { kind: 'after-call', matched: 0 };
  }

  /** Between calls: the separator (next call) or the closing markup (back to text). */
  private afterCall(state: { matched: number }, char: string): void {
    const { separator, close } = this.syntax;
    if (state.matched === 0 && separator !== undefined && char === separator) {
      this.state = { kind: 'before-call' };
      return;
    }
    if (close === '') {
      if (WHITESPACE.test(char)) return;
      // Llama 3: the calls ended; what follows is text again (this character included).
      this.endSection();
      return this.step(char);
    }
    if (char === close[state.matched]) {
      state.matched += 1;
      if (state.matched === close.length) this.endSection();
      return;
    }
    // Anything else before the closing markup is inside the call's markup: dropped.
    state.matched = char === close[0] ? 1 : 0;
  }

  /**
   * The section is not calls after all: its text (trigger included) becomes content, unless
   * calls of it were emitted already, in which case only the unreadable part is dropped.
   * `pending`, the character that showed it, is then read as text again.
   */
  private abandonSection(pending?: string): void {
    const text = pending === undefined ? this.section : this.section.slice(0, -1);
    if (this.sectionCalls === 0) this.content(text);
    this.section = '';
    this.state = { kind: 'text' };
    if (pending !== undefined) this.step(pending);
  }

  private content(text: string): void {
    if (text === '') return;
    const last = this.out.at(-1);
    if (last?.type === 'content')
      this.out[this.out.length - 1] = { ...last, text: last.text + text };
    else this.out.push({ type: 'content', text });
  }

  /** A piece of the current call; consecutive argument pieces of one push merge. */
  private call(piece: { id?: string; name?: string; arguments: string }): void {
    const index = this.count - 1;
    const last = this.out.at(-1);
    // The first delta of a call stays as OpenAI sends it: id and name, `arguments: ''`.
    if (
      piece.id === undefined &&
      last?.type === 'tool_call' &&
      last.index === index &&
      last.id === undefined
    ) {
      this.out[this.out.length - 1] = { ...last, arguments: last.arguments + piece.arguments };
      return;
    }
    this.out.push({ type: 'tool_call', index, ...piece });
  }

  private drain(): ToolCallParserEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}
