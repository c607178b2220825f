// Original file: tessera/v1/moderation.proto

import type { ModerationResult as _tessera_v1_ModerationResult, ModerationResult__Output as _tessera_v1_ModerationResult__Output } from '../../tessera/v1/ModerationResult';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from '../../tessera/v1/Usage';

export interface ClassifyResponse {
  'model'?: (string);
  'results'?: (_tessera_v1_ModerationResult)[];
  'usage'?: (_tessera_v1_Usage | null);
}

export interface ClassifyResponse__Output {
  'model': (string);
  'results': (_tessera_v1_ModerationResult__Output)[];
  'usage': (_tessera_v1_Usage__Output | null);
}
