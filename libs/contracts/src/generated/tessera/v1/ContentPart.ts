// Original file: tessera/v1/chat.proto

import type { Image as _tessera_v1_Image, Image__Output as _tessera_v1_Image__Output } from '../../tessera/v1/Image';

export interface ContentPart {
  'text'?: (string);
  'image'?: (_tessera_v1_Image | null);
  'part'?: "text"|"image";
}

export interface ContentPart__Output {
  'text'?: (string);
  'image'?: (_tessera_v1_Image__Output | null);
  'part'?: "text"|"image";
}
