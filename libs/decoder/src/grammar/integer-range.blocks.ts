// Integer bounds as an EBNF rule of our own. XGrammar 0.1.27 (@mlc-ai/web-xgrammar) writes an
// integer's `minimum`/`maximum` as digit rules and gets many of them wrong: [0, 120] becomes
// `"1" [0-2] [0-9]` (121–129 pass), `minimum: 3` accepts 1 and 2, `minimum: -150` accepts a lone
// "-", `maximum: -10` leaves out -11…-99, and two bounds of the same length give the UNION of
// "≥ min" and "≤ max" ([60000, 64999] accepts every 6xxxx). Its range generator is not used at
// all: the range is cut into aligned decimal blocks — one prefix, one digit range, free digits,
// e.g. [120, 199] = "1" [2-9] [0-9] — whose alternatives are exactly the range.

/** A closed range of integers; an end that is undefined is unbounded. */
export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
}

/** The EBNF alternatives of exactly [min, max], or undefined when the range is empty. */
export function integerRangeEbnf({ min, max }: IntegerRange): string | undefined {
  if (min !== undefined && max !== undefined && min > max) return undefined;
  const alternatives: string[] = [];
  // Negative values: "-" and the blocks of their magnitudes.
  if (min === undefined || min < 0) {
    const fromMagnitude = max === undefined || max >= 0 ? 1 : -max;
    for (const digits of magnitudes(fromMagnitude, min === undefined ? undefined : -min)) {
      alternatives.push(`"-" ${digits}`);
    }
  }
  if (max === undefined || max >= 0) {
    alternatives.push(...magnitudes(min === undefined || min < 0 ? 0 : min, max));
  }
  return alternatives.join(' | ');
}

/** [from, to] (0 ≤ from; to undefined: unbounded) as digit alternatives without a sign. */
function magnitudes(from: number, to: number | undefined): string[] {
  if (to !== undefined) return blocks(from, to).map(blockEbnf);
  if (from === 0) return ['"0"', '[1-9] [0-9]*'];
  // [from, 10^d − 1] in blocks, then every number of more than d digits.
  let power = 1;
  let digits = 0;
  while (power <= from) {
    power *= 10;
    digits++;
  }
  return [...blocks(from, power - 1).map(blockEbnf), `[1-9] [0-9]{${digits},}`];
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

/** A block as EBNF: its common prefix, the digit range where its ends differ, free digits. */
function blockEbnf([lo, hi]: [number, number]): string {
  const low = String(lo);
  const high = String(hi);
  let at = 0;
  while (at < low.length && low[at] === high[at]) at++;
  const parts = at > 0 ? [`"${low.slice(0, at)}"`] : [];
  if (at < low.length) {
    parts.push(low[at] === high[at] ? `"${low[at]}"` : `[${low[at]}-${high[at]}]`);
    const free = low.length - at - 1;
    if (free > 0) parts.push(`[0-9]{${free}}`);
  }
  return parts.join(' ');
}
