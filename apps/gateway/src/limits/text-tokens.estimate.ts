// Tokens of text before a tokenizer has seen it, for reserving a key's token budget: about four
// characters a token, OpenAI's own rule of thumb for English. The gateway has no tokenizer (the
// models' are in the services); what a request really used is billed afterwards.
const CHARACTERS_PER_TOKEN = 4;

export const textTokensEstimate = (characters: number): number =>
  Math.ceil(characters / CHARACTERS_PER_TOKEN);
