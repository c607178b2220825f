import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AudioChunk as _tessera_v1_AudioChunk, AudioChunk__Output as _tessera_v1_AudioChunk__Output } from './tessera/v1/AudioChunk';
import type { Image as _tessera_v1_Image, Image__Output as _tessera_v1_Image__Output } from './tessera/v1/Image';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from './tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from './tessera/v1/ListModelsResponse';
import type { ModelInfo as _tessera_v1_ModelInfo, ModelInfo__Output as _tessera_v1_ModelInfo__Output } from './tessera/v1/ModelInfo';
import type { SpeechClient as _tessera_v1_SpeechClient, SpeechDefinition as _tessera_v1_SpeechDefinition } from './tessera/v1/Speech';
import type { SpeechUsage as _tessera_v1_SpeechUsage, SpeechUsage__Output as _tessera_v1_SpeechUsage__Output } from './tessera/v1/SpeechUsage';
import type { SynthesizeRequest as _tessera_v1_SynthesizeRequest, SynthesizeRequest__Output as _tessera_v1_SynthesizeRequest__Output } from './tessera/v1/SynthesizeRequest';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from './tessera/v1/Usage';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  tessera: {
    v1: {
      AudioChunk: MessageTypeDefinition<_tessera_v1_AudioChunk, _tessera_v1_AudioChunk__Output>
      Image: MessageTypeDefinition<_tessera_v1_Image, _tessera_v1_Image__Output>
      ListModelsRequest: MessageTypeDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsRequest__Output>
      ListModelsResponse: MessageTypeDefinition<_tessera_v1_ListModelsResponse, _tessera_v1_ListModelsResponse__Output>
      ModelInfo: MessageTypeDefinition<_tessera_v1_ModelInfo, _tessera_v1_ModelInfo__Output>
      Speech: SubtypeConstructor<typeof grpc.Client, _tessera_v1_SpeechClient> & { service: _tessera_v1_SpeechDefinition }
      SpeechUsage: MessageTypeDefinition<_tessera_v1_SpeechUsage, _tessera_v1_SpeechUsage__Output>
      SynthesizeRequest: MessageTypeDefinition<_tessera_v1_SynthesizeRequest, _tessera_v1_SynthesizeRequest__Output>
      Usage: MessageTypeDefinition<_tessera_v1_Usage, _tessera_v1_Usage__Output>
    }
  }
}

