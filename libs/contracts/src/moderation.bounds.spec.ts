import { DEFAULT_MODERATION_MAX_INPUTS, moderationMaxInputs } from './moderation.bounds';

describe('moderationMaxInputs', () => {
  it("is the entry's max_inputs, or the service's default where it sets none", () => {
    expect(moderationMaxInputs({ max_inputs: 4 })).toBe(4);
    expect(moderationMaxInputs({})).toBe(DEFAULT_MODERATION_MAX_INPUTS);
  });

  it('falls back to the default for a value the service would refuse to start with', () => {
    for (const max_inputs of [0, 2.5, 4097, '8', null]) {
      expect(moderationMaxInputs({ max_inputs })).toBe(DEFAULT_MODERATION_MAX_INPUTS);
    }
  });
});
