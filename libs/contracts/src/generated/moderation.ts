import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CategoryResult as _tessera_v1_CategoryResult, CategoryResult__Output as _tessera_v1_CategoryResult__Output } from './tessera/v1/CategoryResult';
import type { ClassifyRequest as _tessera_v1_ClassifyRequest, ClassifyRequest__Output as _tessera_v1_ClassifyRequest__Output } from './tessera/v1/ClassifyRequest';
import type { ClassifyResponse as _tessera_v1_ClassifyResponse, ClassifyResponse__Output as _tessera_v1_ClassifyResponse__Output } from './tessera/v1/ClassifyResponse';
import type { Image as _tessera_v1_Image, Image__Output as _tessera_v1_Image__Output } from './tessera/v1/Image';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from './tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from './tessera/v1/ListModelsResponse';
import type { ModelInfo as _tessera_v1_ModelInfo, ModelInfo__Output as _tessera_v1_ModelInfo__Output } from './tessera/v1/ModelInfo';
import type { ModerationClient as _tessera_v1_ModerationClient, ModerationDefinition as _tessera_v1_ModerationDefinition } from './tessera/v1/Moderation';
import type { ModerationItem as _tessera_v1_ModerationItem, ModerationItem__Output as _tessera_v1_ModerationItem__Output } from './tessera/v1/ModerationItem';
import type { ModerationPart as _tessera_v1_ModerationPart, ModerationPart__Output as _tessera_v1_ModerationPart__Output } from './tessera/v1/ModerationPart';
import type { ModerationResult as _tessera_v1_ModerationResult, ModerationResult__Output as _tessera_v1_ModerationResult__Output } from './tessera/v1/ModerationResult';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from './tessera/v1/Usage';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  tessera: {
    v1: {
      CategoryResult: MessageTypeDefinition<_tessera_v1_CategoryResult, _tessera_v1_CategoryResult__Output>
      ClassifyRequest: MessageTypeDefinition<_tessera_v1_ClassifyRequest, _tessera_v1_ClassifyRequest__Output>
      ClassifyResponse: MessageTypeDefinition<_tessera_v1_ClassifyResponse, _tessera_v1_ClassifyResponse__Output>
      Image: MessageTypeDefinition<_tessera_v1_Image, _tessera_v1_Image__Output>
      ListModelsRequest: MessageTypeDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsRequest__Output>
      ListModelsResponse: MessageTypeDefinition<_tessera_v1_ListModelsResponse, _tessera_v1_ListModelsResponse__Output>
      ModelInfo: MessageTypeDefinition<_tessera_v1_ModelInfo, _tessera_v1_ModelInfo__Output>
      Moderation: SubtypeConstructor<typeof grpc.Client, _tessera_v1_ModerationClient> & { service: _tessera_v1_ModerationDefinition }
      ModerationItem: MessageTypeDefinition<_tessera_v1_ModerationItem, _tessera_v1_ModerationItem__Output>
      ModerationPart: MessageTypeDefinition<_tessera_v1_ModerationPart, _tessera_v1_ModerationPart__Output>
      ModerationResult: MessageTypeDefinition<_tessera_v1_ModerationResult, _tessera_v1_ModerationResult__Output>
      Usage: MessageTypeDefinition<_tessera_v1_Usage, _tessera_v1_Usage__Output>
    }
  }
}

