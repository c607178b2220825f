// Original file: tessera/v1/embeddings.proto

import type { TokenIds as _tessera_v1_TokenIds, TokenIds__Output as _tessera_v1_TokenIds__Output } from '../../tessera/v1/TokenIds';

export interface EmbedInput {
  'text'?: (string);
  'tokens'?: (_tessera_v1_TokenIds | null);
  'kind'?: "text"|"tokens";
}

export interface EmbedInput__Output {
  'text'?: (string);
  'tokens'?: (_tessera_v1_TokenIds__Output | null);
  'kind'?: "text"|"tokens";
}
