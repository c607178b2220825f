// How many inputs one moderation request may carry, in one place for both sides of the Classify
// call: the moderation service validates a models-file entry's `max_inputs` with these bounds
// and re-checks every call; the gateway refuses a longer `input` before reading its items.

/** `max_inputs` when a models-file entry leaves it out. */
export const DEFAULT_MODERATION_MAX_INPUTS = 32;
/** The largest `max_inputs` a models-file entry may set. */
export const MODERATION_MAX_INPUTS_LIMIT = 4096;

/**
 * An entry's `max_inputs`, read from its raw options. The service refuses to start on a value
 * outside the bounds, so a model served with one never answers; the default stands in for it.
 */
export function moderationMaxInputs(options: Readonly<Record<string, unknown>>): number {
  const value = options.max_inputs;
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 1 &&
    value <= MODERATION_MAX_INPUTS_LIMIT
    ? value
    : DEFAULT_MODERATION_MAX_INPUTS;
}
