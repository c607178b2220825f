// A tool whose parameters a random walk through their grammar always completes (an enum, an
// integer range): for specs that check forced calls on random-weight models.
export const WEATHER_PARAMETERS = {
  type: 'object',
  properties: {
    city: { type: 'string', enum: ['Paris', 'Oslo', 'Lima'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
  },
  required: ['city', 'days'],
  additionalProperties: false,
};

/** What a tool without parameters accepts as arguments: `{}` only. */
export const NO_PARAMETERS = { type: 'object', maxProperties: 0 };
