// Original file: tessera/v1/embeddings.proto

import type { Embedding as _tessera_v1_Embedding, Embedding__Output as _tessera_v1_Embedding__Output } from '../../tessera/v1/Embedding';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from '../../tessera/v1/Usage';

export interface EmbedResponse {
  'model'?: (string);
  'embeddings'?: (_tessera_v1_Embedding)[];
  'usage'?: (_tessera_v1_Usage | null);
}

export interface EmbedResponse__Output {
  'model': (string);
  'embeddings': (_tessera_v1_Embedding__Output)[];
  'usage': (_tessera_v1_Usage__Output | null);
}
