// Original file: tessera/v1/transcription.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from '../../tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from '../../tessera/v1/ListModelsResponse';
import type { TranscribeRequest as _tessera_v1_TranscribeRequest, TranscribeRequest__Output as _tessera_v1_TranscribeRequest__Output } from '../../tessera/v1/TranscribeRequest';
import type { TranscribeResponse as _tessera_v1_TranscribeResponse, TranscribeResponse__Output as _tessera_v1_TranscribeResponse__Output } from '../../tessera/v1/TranscribeResponse';

export interface TranscriptionClient extends grpc.Client {
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
  Transcribe(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  Transcribe(metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  Transcribe(options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  Transcribe(callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  transcribe(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  transcribe(metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  transcribe(options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  transcribe(callback: grpc.requestCallback<_tessera_v1_TranscribeResponse__Output>): grpc.ClientWritableStream<_tessera_v1_TranscribeRequest>;
  
}

export interface TranscriptionHandlers extends grpc.UntypedServiceImplementation {
  ListModels: grpc.handleUnaryCall<_tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse>;
  
  Transcribe: grpc.handleClientStreamingCall<_tessera_v1_TranscribeRequest__Output, _tessera_v1_TranscribeResponse>;
  
}

export interface TranscriptionDefinition extends grpc.ServiceDefinition {
  ListModels: MethodDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsResponse, _tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse__Output>
  Transcribe: MethodDefinition<_tessera_v1_TranscribeRequest, _tessera_v1_TranscribeResponse, _tessera_v1_TranscribeRequest__Output, _tessera_v1_TranscribeResponse__Output>
}
