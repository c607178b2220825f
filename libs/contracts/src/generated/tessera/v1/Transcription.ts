// Original file: tessera/v1/transcription.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from '../../tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from '../../tessera/v1/ListModelsResponse';
import type { TranscribeEvent as _tessera_v1_TranscribeEvent, TranscribeEvent__Output as _tessera_v1_TranscribeEvent__Output } from '../../tessera/v1/TranscribeEvent';
import type { TranscribeRequest as _tessera_v1_TranscribeRequest, TranscribeRequest__Output as _tessera_v1_TranscribeRequest__Output } from '../../tessera/v1/TranscribeRequest';

export interface TranscriptionClient extends grpc.Client {
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
  Transcribe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_tessera_v1_TranscribeRequest, _tessera_v1_TranscribeEvent__Output>;
  Transcribe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_tessera_v1_TranscribeRequest, _tessera_v1_TranscribeEvent__Output>;
  transcribe(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_tessera_v1_TranscribeRequest, _tessera_v1_TranscribeEvent__Output>;
  transcribe(options?: grpc.CallOptions): grpc.ClientDuplexStream<_tessera_v1_TranscribeRequest, _tessera_v1_TranscribeEvent__Output>;
  
}

export interface TranscriptionHandlers extends grpc.UntypedServiceImplementation {
  ListModels: grpc.handleUnaryCall<_tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse>;
  
  Transcribe: grpc.handleBidiStreamingCall<_tessera_v1_TranscribeRequest__Output, _tessera_v1_TranscribeEvent>;
  
}

export interface TranscriptionDefinition extends grpc.ServiceDefinition {
  ListModels: MethodDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsResponse, _tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse__Output>
  Transcribe: MethodDefinition<_tessera_v1_TranscribeRequest, _tessera_v1_TranscribeEvent, _tessera_v1_TranscribeRequest__Output, _tessera_v1_TranscribeEvent__Output>
}
