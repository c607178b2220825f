// Bounds on the schema keywords that make a grammar expensive to compile, checked on every
// schema (strict or not) before anything reaches a model: XGrammar writes a repetition as one
// copy of its item per count, and compiles a grammar in one call that cannot be sliced.
// Measured on the SmolLM2 vocabulary (docs/chat.md, "Grammar compile cost bounds"): a string's
// `maxLength` up to 128 compiles in 0.1–0.5 s and 129 in 8–20 s with 80 MB more memory
// (XGrammar's expansion stops at 128); each required character (`minLength`) adds a copy of
// the whole JSON-character grammar (~50–100 ms). Array bounds cost nothing extra (an array
// repeats by reference) and are not bounded. Keywords within their bounds still add up in one
// grammar, so a schema's counts together are held to a budget as well.

/** Keyword → the largest value accepted. */
export const SCHEMA_COST_BOUNDS = {
  maxLength: 128,
  minLength: 32,
  minProperties: 32,
} as const satisfies Record<string, number>;

/** The largest count of a quantifier in a `pattern` (`{n}`, `{n,}`, `{n,m}`): m, and n. */
export const PATTERN_REPEAT_BOUND = 128;
export const PATTERN_REQUIRED_REPEAT_BOUND = 32;

/**
 * Sums over one schema (a response_format's, one tool's parameters): each keyword within its
 * bound still adds its copies to the one grammar, compiled in one call. `required`: minLength,
 * minProperties and the lower counts of pattern quantifiers; `total`: those and the upper ones.
 */
export const SCHEMA_REPEAT_BUDGET = { required: 64, total: 4096 } as const;

/** The cost of one schema, keyword by keyword. */
export class SchemaCost {
  private required = 0;
  private total = 0;

  /** Why `keyword: value` takes the schema past a bound or its budget, or undefined. */
  add(keyword: string, value: unknown): string | undefined {
    const own = keywordCost(keyword, value);
    if (own) return own;
    for (const [low, high] of repetitions(keyword, value)) {
      this.required += low;
      this.total += low + high;
    }
    if (this.required > SCHEMA_REPEAT_BUDGET.required) {
      return `the schema's required repetitions (minLength, minProperties, pattern counts) add up to ${this.required}, more than ${SCHEMA_REPEAT_BUDGET.required}, the most the grammar engine accepts in one schema`;
    }
    if (this.total > SCHEMA_REPEAT_BUDGET.total) {
      return `the schema's repetitions (lengths, minProperties, pattern counts) add up to ${this.total}, more than ${SCHEMA_REPEAT_BUDGET.total}, the most the grammar engine accepts in one schema`;
    }
    return undefined;
  }
}

/** Why one `keyword: value` costs more to compile than the engine accepts, or undefined. */
function keywordCost(keyword: string, value: unknown): string | undefined {
  if (Object.hasOwn(SCHEMA_COST_BOUNDS, keyword) && typeof value === 'number') {
    const bound = SCHEMA_COST_BOUNDS[keyword as keyof typeof SCHEMA_COST_BOUNDS];
    if (value > bound) {
      return `${keyword} ${value} is more than ${bound}, the largest ${keyword} the grammar engine accepts`;
    }
  }
  if (keyword !== 'pattern' || typeof value !== 'string') return undefined;
  for (const { text, low, high } of quantifiers(value)) {
    if (low > PATTERN_REQUIRED_REPEAT_BOUND) {
      return `the pattern repeats ${text}: at least ${low} is more than ${PATTERN_REQUIRED_REPEAT_BOUND}, the largest required count the grammar engine accepts`;
    }
    if (high > PATTERN_REPEAT_BOUND) {
      return `the pattern repeats ${text}: ${high} is more than ${PATTERN_REPEAT_BOUND}, the largest count the grammar engine accepts`;
    }
  }
  return undefined;
}

/** The [required, optional-or-more] copies a keyword writes into the grammar. */
function repetitions(keyword: string, value: unknown): [number, number][] {
  if (keyword === 'pattern' && typeof value === 'string') {
    return quantifiers(value).map(({ low, high }) => [low, high - low]);
  }
  if (typeof value !== 'number' || !Object.hasOwn(SCHEMA_COST_BOUNDS, keyword)) return [];
  return keyword === 'maxLength' ? [[0, value]] : [[value, 0]];
}

interface Quantifier {
  readonly text: string;
  readonly low: number;
  /** The upper count; `low` when there is none (`{n,}`: what follows is a free repetition). */
  readonly high: number;
}

/** The counted quantifiers of a regular expression (escaped braces are not quantifiers). */
function quantifiers(pattern: string): Quantifier[] {
  const found: Quantifier[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      i++;
      continue;
    }
    const match = pattern[i] === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
    if (!match) continue;
    const low = Number(match[1]);
    found.push({ text: match[0], low, high: Math.max(low, Number(match[3] || low)) });
  }
  return found;
}
