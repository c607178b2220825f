// Array inputs whose length is checked before any of their items. zod's own
// `z.array(item).max(n)` parses every item and only then looks at the length, so a body of
// 500,000 items cost 500,000 item parses (and their copies) before its 400. Every array a client
// sends goes through here: `arrayWithin` when its items are checked later, one by one, with
// their own paths; `boundedArray` when zod checks them too.
import { z } from 'zod';

export interface LengthBounds {
  readonly min?: number;
  readonly max?: number;
}

const gates = new Map<string, z.ZodType<unknown[]>>();
const arrays = new WeakMap<z.ZodType, Map<string, z.ZodType>>();

const keyOf = (bounds: LengthBounds) => `${bounds.min ?? 0}:${bounds.max ?? Infinity}`;

/**
 * Any array whose length is within `bounds`, its items untouched: the same array comes out. The
 * issues are zod's own (invalid_type, too_small, too_big), so they read as every other
 * array's (issue.wording.ts). One schema per bounds, built once: the bounds may be settings.
 */
export function arrayWithin(bounds: LengthBounds): z.ZodType<unknown[]> {
  const key = keyOf(bounds);
  let gate = gates.get(key);
  if (!gate) {
    gate = lengthGate(bounds);
    gates.set(key, gate);
  }
  return gate;
}

/** `z.array(item)` within `bounds`, the length checked first; built once per item and bounds. */
export function boundedArray<T extends z.ZodType>(
  item: T,
  bounds: LengthBounds,
): z.ZodPipe<z.ZodType<unknown[]>, z.ZodArray<T>> {
  let byBounds = arrays.get(item);
  if (!byBounds) {
    byBounds = new Map();
    arrays.set(item, byBounds);
  }
  const key = keyOf(bounds);
  let schema = byBounds.get(key) as z.ZodPipe<z.ZodType<unknown[]>, z.ZodArray<T>> | undefined;
  if (!schema) {
    schema = arrayWithin(bounds).pipe(z.array(item));
    byBounds.set(key, schema);
  }
  return schema;
}

function lengthGate({ min = 0, max = Infinity }: LengthBounds): z.ZodType<unknown[]> {
  return z.custom<unknown[]>().superRefine((value, context) => {
    if (!Array.isArray(value)) {
      context.addIssue({ code: 'invalid_type', expected: 'array', input: value });
    } else if (value.length < min) {
      context.addIssue({
        code: 'too_small',
        origin: 'array',
        minimum: min,
        inclusive: true,
        input: value,
      });
    } else if (value.length > max) {
      context.addIssue({
        code: 'too_big',
        origin: 'array',
        maximum: max,
        inclusive: true,
        input: value,
      });
    }
  });
}
