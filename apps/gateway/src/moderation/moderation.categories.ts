// The 13 categories of OpenAI's moderation response, in the order the spec lists them
// (CreateModerationResponse): every result carries each of them, whatever the model covers.
export const MODERATION_CATEGORIES = [
  'hate',
  'hate/threatening',
  'harassment',
  'harassment/threatening',
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

/** What a category's score was computed from (the spec allows "image" for six of them). */
export type AppliedInputType = 'text' | 'image';
