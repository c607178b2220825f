// Original file: tessera/v1/moderation.proto

import type { ModerationResult as _tessera_v1_ModerationResult, ModerationResult__Output as _tessera_v1_ModerationResult__Output } from '../../tessera/v1/ModerationResult';

export interface ClassifyResponse {
  'model'?: (string);
  'results'?: (_tessera_v1_ModerationResult)[];
}

export interface ClassifyResponse__Output {
  'model': (string);
  'results': (_tessera_v1_ModerationResult__Output)[];
}
