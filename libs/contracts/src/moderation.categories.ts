// OpenAI's moderation categories, in the order its API reference lists them. Every moderation
// result carries all of them (a category no classifier of the model covers scores 0), so the
// moderation service (its category map) and the gateway (the response) share this one list.
export const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];
