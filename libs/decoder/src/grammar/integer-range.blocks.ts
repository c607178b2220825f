// Integer bounds as an EBNF rule of our own. XGrammar 0.1.27 (@mlc-ai/web-xgrammar) writes an
// integer's `minimum`/`maximum` as digit rules and gets many of them wrong: [0, 120] becomes
// `"1" [0-2] [0-9]` (121–129 pass), `minimum: 3` accepts 1 and 2, `minimum: -150` accepts a lone
// "-", `maximum: -10` leaves out -11…-99, and two bounds of the same length give the UNION of
// "≥ min" and "≤ max" ([60000, 64999] accepts every 6xxxx). Its range generator is not used at
// all: the range is cut into aligned decimal blocks — one prefix, one digit range, free digits,
// e.g. [120, 199] = "1" [2-9] [0-9] — exactly the range together, and the blocks are written as
// a deterministic trie of rules (see TrieRules for why).

/** A closed range of integers; an end that is undefined is unbounded. */
export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
}

/** The largest magnitude written (open ends stop here, beyond it bounds lose precision anyway). */
const LARGEST = Number.MAX_SAFE_INTEGER;

/**
 * EBNF rules (`name` first) matching exactly the integers of [min, max], or undefined when the
 * range is empty.
 */
export function integerRangeRules(range: IntegerRange, name: string): string | undefined {
  const min = range.min ?? -LARGEST;
  const max = range.max ?? LARGEST;
  if (min > max) return undefined;
  const words: Word[] = [];
  // Negative values: "-" and the blocks of their magnitudes.
  if (min < 0) {
    for (const block of blocks(max >= 0 ? 1 : -max, -min)) words.push([['-'], ...blockWord(block)]);
  }
  if (max >= 0) for (const block of blocks(Math.max(min, 0), max)) words.push(blockWord(block));
  return new TrieRules(name).rules(words);
}

/** A string of characters, each position a set of allowed characters ('-' and digits). */
type Word = string[][];

const DIGITS = '0123456789';

/** A block [p·10^(k+1) + a·10^k, …]: its common prefix, the digit range, then free digits. */
function blockWord([lo, hi]: [number, number]): Word {
  const high = String(hi);
  // Same length; equal digits, then one range, then 0..9 (aligned).
  return [...String(lo)].map((digit, at) => [...DIGITS].filter((d) => d >= digit && d <= high[at]));
}

/**
 * The words as a deterministic trie of rules: in each rule the alternatives start with disjoint
 * characters, and identical remainders share one rule. XGrammar 0.1.27 mismatches alternatives
 * that share a prefix (`"-" [1-9] [0-9] | [1-9] [0-9] [0-9] | [1-9] [0-9] [0-9] [0-9]` accepts
 * "-151", and so does its own output for integer ranges); a trie gives it no such choice.
 */
class TrieRules {
  private readonly names = new Map<string, string>();
  private readonly lines: string[] = [];

  constructor(private readonly name: string) {}

  rules(words: Word[]): string {
    this.node(words);
    return this.lines.join('\n');
  }

  private node(words: Word[]): string {
    const key = JSON.stringify(words.map((word) => JSON.stringify(word)).sort());
    const known = this.names.get(key);
    if (known) return known;
    const name = this.names.size === 0 ? this.name : `${this.name}_${this.names.size}`;
    this.names.set(key, name);
    const alternatives: string[] = words.some((word) => word.length === 0) ? ['""'] : [];
    // Characters grouped by the words that go on after them.
    const groups = new Map<string, { chars: string[]; rest: Word[] }>();
    for (const char of ['-', ...DIGITS]) {
      const rest = words.filter((word) => word[0]?.includes(char)).map((word) => word.slice(1));
      if (rest.length === 0) continue;
      const restKey = JSON.stringify(rest.map((word) => JSON.stringify(word)).sort());
      const group = groups.get(restKey) ?? { chars: [], rest };
      group.chars.push(char);
      groups.set(restKey, group);
    }
    // This rule's line comes first (the top rule is `name`); its children fill in after it.
    const at = this.lines.push('') - 1;
    for (const { chars, rest } of groups.values()) {
      const child = rest.every((word) => word.length === 0) ? '' : ` ${this.node(rest)}`;
      alternatives.push(`${charClass(chars)}${child}`);
    }
    this.lines[at] = `${name} ::= ${alternatives.join(' | ')}`;
    return name;
  }
}

/** '-' alone, or digits as a class of ranges. */
function charClass(chars: string[]): string {
  if (chars.includes('-')) return '"-"';
  if (chars.length === 1) return `"${chars[0]}"`;
  const ranges: string[] = [];
  for (let i = 0; i < chars.length;) {
    let j = i;
    while (j + 1 < chars.length && +chars[j + 1] === +chars[j] + 1) j++;
    ranges.push(j === i ? chars[i] : `${chars[i]}-${chars[j]}`);
    i = j + 1;
  }
  return `[${ranges.join('')}]`;
}

/**
 * [lo, hi] (0 ≤ lo ≤ hi) as aligned blocks [p·10^(k+1) + a·10^k, p·10^(k+1) + (b+1)·10^k − 1]:
 * one prefix p, one digit range a..b, k free digits; 0 alone and never across a digit count.
 */
export function blocks(lo: number, hi: number): [number, number][] {
  const result: [number, number][] = [];
  let from = lo;
  if (from === 0) {
    result.push([0, 0]);
    from = 1;
  }
  while (from <= hi) {
    let size = 1;
    // The largest block size 10^k that `from` is aligned to and that fits below hi.
    while (from % (size * 10) === 0 && from + size * 10 - 1 <= hi) size *= 10;
    const digit = Math.floor(from / size) % 10;
    const count = Math.min(Math.floor((hi - from + 1) / size), 10 - digit);
    result.push([from, from + count * size - 1]);
    from += count * size;
  }
  return result;
}
