import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Image as _tessera_v1_Image, Image__Output as _tessera_v1_Image__Output } from './tessera/v1/Image';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from './tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from './tessera/v1/ListModelsResponse';
import type { ModelInfo as _tessera_v1_ModelInfo, ModelInfo__Output as _tessera_v1_ModelInfo__Output } from './tessera/v1/ModelInfo';
import type { Segment as _tessera_v1_Segment, Segment__Output as _tessera_v1_Segment__Output } from './tessera/v1/Segment';
import type { TranscribeEvent as _tessera_v1_TranscribeEvent, TranscribeEvent__Output as _tessera_v1_TranscribeEvent__Output } from './tessera/v1/TranscribeEvent';
import type { TranscribeRequest as _tessera_v1_TranscribeRequest, TranscribeRequest__Output as _tessera_v1_TranscribeRequest__Output } from './tessera/v1/TranscribeRequest';
import type { TranscribeResponse as _tessera_v1_TranscribeResponse, TranscribeResponse__Output as _tessera_v1_TranscribeResponse__Output } from './tessera/v1/TranscribeResponse';
import type { TranscriptDelta as _tessera_v1_TranscriptDelta, TranscriptDelta__Output as _tessera_v1_TranscriptDelta__Output } from './tessera/v1/TranscriptDelta';
import type { TranscriptionClient as _tessera_v1_TranscriptionClient, TranscriptionDefinition as _tessera_v1_TranscriptionDefinition } from './tessera/v1/Transcription';
import type { TranscriptionConfig as _tessera_v1_TranscriptionConfig, TranscriptionConfig__Output as _tessera_v1_TranscriptionConfig__Output } from './tessera/v1/TranscriptionConfig';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from './tessera/v1/Usage';
import type { Word as _tessera_v1_Word, Word__Output as _tessera_v1_Word__Output } from './tessera/v1/Word';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  tessera: {
    v1: {
      Image: MessageTypeDefinition<_tessera_v1_Image, _tessera_v1_Image__Output>
      ListModelsRequest: MessageTypeDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsRequest__Output>
      ListModelsResponse: MessageTypeDefinition<_tessera_v1_ListModelsResponse, _tessera_v1_ListModelsResponse__Output>
      ModelInfo: MessageTypeDefinition<_tessera_v1_ModelInfo, _tessera_v1_ModelInfo__Output>
      Segment: MessageTypeDefinition<_tessera_v1_Segment, _tessera_v1_Segment__Output>
      TranscribeEvent: MessageTypeDefinition<_tessera_v1_TranscribeEvent, _tessera_v1_TranscribeEvent__Output>
      TranscribeRequest: MessageTypeDefinition<_tessera_v1_TranscribeRequest, _tessera_v1_TranscribeRequest__Output>
      TranscribeResponse: MessageTypeDefinition<_tessera_v1_TranscribeResponse, _tessera_v1_TranscribeResponse__Output>
      TranscriptDelta: MessageTypeDefinition<_tessera_v1_TranscriptDelta, _tessera_v1_TranscriptDelta__Output>
      Transcription: SubtypeConstructor<typeof grpc.Client, _tessera_v1_TranscriptionClient> & { service: _tessera_v1_TranscriptionDefinition }
      TranscriptionConfig: MessageTypeDefinition<_tessera_v1_TranscriptionConfig, _tessera_v1_TranscriptionConfig__Output>
      Usage: MessageTypeDefinition<_tessera_v1_Usage, _tessera_v1_Usage__Output>
      Word: MessageTypeDefinition<_tessera_v1_Word, _tessera_v1_Word__Output>
    }
  }
}

