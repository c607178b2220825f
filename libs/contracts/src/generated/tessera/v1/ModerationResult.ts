// Original file: tessera/v1/moderation.proto

import type { CategoryResult as _tessera_v1_CategoryResult, CategoryResult__Output as _tessera_v1_CategoryResult__Output } from '../../tessera/v1/CategoryResult';

export interface ModerationResult {
  'flagged'?: (boolean);
  'categories'?: (_tessera_v1_CategoryResult)[];
}

export interface ModerationResult__Output {
  'flagged': (boolean);
  'categories': (_tessera_v1_CategoryResult__Output)[];
}
