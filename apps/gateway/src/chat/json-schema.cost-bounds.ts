// Bounds on the schema keywords that make a grammar expensive to compile, checked on every
// schema (strict or not) before anything reaches a model: XGrammar writes a repetition as one
// copy of its item per count, and compiles a grammar in one call that cannot be sliced.
// Measured on the SmolLM2 vocabulary (docs/chat.md, "Grammar compile cost bounds"): a string's
// `maxLength` up to 128 compiles in 0.1–0.5 s and 129 in 8–20 s with 80 MB more memory
// (XGrammar's expansion stops at 128); each required character (`minLength`) adds a copy of
// the whole JSON-character grammar (~50–100 ms). Array bounds cost nothing extra (an array
// repeats by reference) and are not bounded.

/** Keyword → the largest value accepted. */
export const SCHEMA_COST_BOUNDS = {
  maxLength: 128,
  minLength: 32,
  minProperties: 32,
} as const satisfies Record<string, number>;

/** The largest count of a quantifier in a `pattern` (`{n}`, `{n,}`, `{n,m}`): m, and n. */
export const PATTERN_REPEAT_BOUND = 128;
export const PATTERN_REQUIRED_REPEAT_BOUND = 32;

/** Why `keyword: value` costs more to compile than the engine accepts, or undefined. */
export function costProblem(keyword: string, value: unknown): string | undefined {
  if (Object.hasOwn(SCHEMA_COST_BOUNDS, keyword) && typeof value === 'number') {
    const bound = SCHEMA_COST_BOUNDS[keyword as keyof typeof SCHEMA_COST_BOUNDS];
    if (value > bound) {
      return `${keyword} ${value} is more than ${bound}, the largest ${keyword} the grammar engine accepts`;
    }
  }
  if (keyword === 'pattern' && typeof value === 'string') return patternProblem(value);
  return undefined;
}

function patternProblem(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      i++;
      continue;
    }
    const quantifier = pattern[i] === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
    if (!quantifier) continue;
    const low = Number(quantifier[1]);
    const high = quantifier[2] === undefined ? low : Number(quantifier[3] || low);
    if (low > PATTERN_REQUIRED_REPEAT_BOUND) {
      return `the pattern repeats ${quantifier[0]}: at least ${low} is more than ${PATTERN_REQUIRED_REPEAT_BOUND}, the largest required count the grammar engine accepts`;
    }
    if (high > PATTERN_REPEAT_BOUND) {
      return `the pattern repeats ${quantifier[0]}: ${high} is more than ${PATTERN_REPEAT_BOUND}, the largest count the grammar engine accepts`;
    }
  }
  return undefined;
}
