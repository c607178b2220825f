// Original file: tessera/v1/moderation.proto

import type { ModerationItem as _tessera_v1_ModerationItem, ModerationItem__Output as _tessera_v1_ModerationItem__Output } from '../../tessera/v1/ModerationItem';

export interface ClassifyRequest {
  'model'?: (string);
  'items'?: (_tessera_v1_ModerationItem)[];
}

export interface ClassifyRequest__Output {
  'model': (string);
  'items': (_tessera_v1_ModerationItem__Output)[];
}
