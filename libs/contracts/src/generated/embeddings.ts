import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { EmbedInput as _tessera_v1_EmbedInput, EmbedInput__Output as _tessera_v1_EmbedInput__Output } from './tessera/v1/EmbedInput';
import type { EmbedRequest as _tessera_v1_EmbedRequest, EmbedRequest__Output as _tessera_v1_EmbedRequest__Output } from './tessera/v1/EmbedRequest';
import type { EmbedResponse as _tessera_v1_EmbedResponse, EmbedResponse__Output as _tessera_v1_EmbedResponse__Output } from './tessera/v1/EmbedResponse';
import type { Embedding as _tessera_v1_Embedding, Embedding__Output as _tessera_v1_Embedding__Output } from './tessera/v1/Embedding';
import type { EmbeddingsClient as _tessera_v1_EmbeddingsClient, EmbeddingsDefinition as _tessera_v1_EmbeddingsDefinition } from './tessera/v1/Embeddings';
import type { Image as _tessera_v1_Image, Image__Output as _tessera_v1_Image__Output } from './tessera/v1/Image';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from './tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from './tessera/v1/ListModelsResponse';
import type { ModelInfo as _tessera_v1_ModelInfo, ModelInfo__Output as _tessera_v1_ModelInfo__Output } from './tessera/v1/ModelInfo';
import type { TokenIds as _tessera_v1_TokenIds, TokenIds__Output as _tessera_v1_TokenIds__Output } from './tessera/v1/TokenIds';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from './tessera/v1/Usage';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  tessera: {
    v1: {
      EmbedInput: MessageTypeDefinition<_tessera_v1_EmbedInput, _tessera_v1_EmbedInput__Output>
      EmbedRequest: MessageTypeDefinition<_tessera_v1_EmbedRequest, _tessera_v1_EmbedRequest__Output>
      EmbedResponse: MessageTypeDefinition<_tessera_v1_EmbedResponse, _tessera_v1_EmbedResponse__Output>
      Embedding: MessageTypeDefinition<_tessera_v1_Embedding, _tessera_v1_Embedding__Output>
      Embeddings: SubtypeConstructor<typeof grpc.Client, _tessera_v1_EmbeddingsClient> & { service: _tessera_v1_EmbeddingsDefinition }
      Image: MessageTypeDefinition<_tessera_v1_Image, _tessera_v1_Image__Output>
      ListModelsRequest: MessageTypeDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsRequest__Output>
      ListModelsResponse: MessageTypeDefinition<_tessera_v1_ListModelsResponse, _tessera_v1_ListModelsResponse__Output>
      ModelInfo: MessageTypeDefinition<_tessera_v1_ModelInfo, _tessera_v1_ModelInfo__Output>
      TokenIds: MessageTypeDefinition<_tessera_v1_TokenIds, _tessera_v1_TokenIds__Output>
      Usage: MessageTypeDefinition<_tessera_v1_Usage, _tessera_v1_Usage__Output>
    }
  }
}

