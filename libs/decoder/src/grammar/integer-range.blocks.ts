// Integer bounds as schemas XGrammar compiles exactly. XGrammar 0.1.27 (@mlc-ai/web-xgrammar)
// writes `minimum`/`maximum` of an integer as digit rules and gets many of them wrong: [0, 120]
// becomes `"1" [0-2] [0-9]` (121–129 allowed), `minimum: 3` allows 1 and 2, `minimum: -150`
// allows "-" alone, `maximum: -10` leaves out -11…-99. What it does compile exactly (checked
// value by value in integer-range.blocks.spec.ts) are aligned decimal blocks — one prefix, one
// digit range, then free digits, e.g. [120, 199] or [1000, 9999] — a single value, `minimum: 0`,
// `minimum: 10^k` and `maximum: -1`. So a range is cut into such blocks, each a schema of its
// own, and their anyOf is exactly the range.

/** A closed range of integers; an end that is undefined is unbounded. */
export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
}

type Schema = Record<string, unknown>;

/** The schemas whose union is exactly [min, max] (none when the range is empty). */
export function integerRangeSchemas({ min, max }: IntegerRange): Schema[] {
  if (min !== undefined && max !== undefined && min > max) return [];
  const schemas: Schema[] = [];
  // Negative values: the blocks of their magnitudes, mirrored.
  if (min === undefined || min < 0) {
    const fromMagnitude = max === undefined || max >= 0 ? 1 : -max;
    if (min === undefined) {
      const power = powerAbove(fromMagnitude);
      for (const [lo, hi] of blocks(fromMagnitude, power - 1)) schemas.push(block(-hi, -lo));
      for (const [lo, hi] of blocks(power, power * 10 - 1)) schemas.push(block(-hi, -lo));
      // "-10^k" and every magnitude of k+2 digits or more: exact for a power of ten.
      schemas.push({ type: 'integer', maximum: -power });
    } else {
      for (const [lo, hi] of blocks(fromMagnitude, -min)) schemas.push(block(-hi, -lo));
    }
  }
  // Non-negative values.
  if (max === undefined || max >= 0) {
    const from = min === undefined || min < 0 ? 0 : min;
    if (max === undefined) {
      const power = from === 0 ? 0 : powerAbove(from);
      if (from < power) for (const [lo, hi] of blocks(from, power - 1)) schemas.push(block(lo, hi));
      schemas.push({ type: 'integer', minimum: power });
    } else {
      for (const [lo, hi] of blocks(from, max)) schemas.push(block(lo, hi));
    }
  }
  return schemas;
}

function block(minimum: number, maximum: number): Schema {
  return minimum === maximum ? { const: minimum } : { type: 'integer', minimum, maximum };
}

/** The smallest power of ten ≥ value (value ≥ 1), so [value, power − 1] has value's digits. */
function powerAbove(value: number): number {
  let power = 1;
  while (power < value) power *= 10;
  return power;
}

/**
 * [lo, hi] (0 ≤ lo ≤ hi) as aligned blocks [p·10^k + a·10^k, p·10^k + (b+1)·10^k − 1]: one
 * prefix p, one digit range a..b, k free digits; 0 alone and never across a digit count.
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
