// Original file: tessera/v1/moderation.proto

import type { Image as _tessera_v1_Image, Image__Output as _tessera_v1_Image__Output } from '../../tessera/v1/Image';

export interface ModerationPart {
  'text'?: (string);
  'image'?: (_tessera_v1_Image | null);
  'kind'?: "text"|"image";
}

export interface ModerationPart__Output {
  'text'?: (string);
  'image'?: (_tessera_v1_Image__Output | null);
  'kind'?: "text"|"image";
}
