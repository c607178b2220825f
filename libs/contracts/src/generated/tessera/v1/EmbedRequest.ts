// Original file: tessera/v1/embeddings.proto

import type { EmbedInput as _tessera_v1_EmbedInput, EmbedInput__Output as _tessera_v1_EmbedInput__Output } from '../../tessera/v1/EmbedInput';

export interface EmbedRequest {
  'model'?: (string);
  'inputs'?: (_tessera_v1_EmbedInput)[];
  'dimensions'?: (number);
  'user'?: (string);
}

export interface EmbedRequest__Output {
  'model': (string);
  'inputs': (_tessera_v1_EmbedInput__Output)[];
  'dimensions': (number);
  'user': (string);
}
