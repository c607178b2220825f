// Original file: tessera/v1/moderation.proto

import type { ModerationPart as _tessera_v1_ModerationPart, ModerationPart__Output as _tessera_v1_ModerationPart__Output } from '../../tessera/v1/ModerationPart';

export interface ModerationItem {
  'parts'?: (_tessera_v1_ModerationPart)[];
}

export interface ModerationItem__Output {
  'parts': (_tessera_v1_ModerationPart__Output)[];
}
