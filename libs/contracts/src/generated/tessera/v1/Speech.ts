// Original file: tessera/v1/speech.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AudioChunk as _tessera_v1_AudioChunk, AudioChunk__Output as _tessera_v1_AudioChunk__Output } from '../../tessera/v1/AudioChunk';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from '../../tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from '../../tessera/v1/ListModelsResponse';
import type { SynthesizeRequest as _tessera_v1_SynthesizeRequest, SynthesizeRequest__Output as _tessera_v1_SynthesizeRequest__Output } from '../../tessera/v1/SynthesizeRequest';

export interface SpeechClient extends grpc.Client {
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
  Synthesize(argument: _tessera_v1_SynthesizeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_AudioChunk__Output>;
  Synthesize(argument: _tessera_v1_SynthesizeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_AudioChunk__Output>;
  synthesize(argument: _tessera_v1_SynthesizeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_AudioChunk__Output>;
  synthesize(argument: _tessera_v1_SynthesizeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_AudioChunk__Output>;
  
}

export interface SpeechHandlers extends grpc.UntypedServiceImplementation {
  ListModels: grpc.handleUnaryCall<_tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse>;
  
  Synthesize: grpc.handleServerStreamingCall<_tessera_v1_SynthesizeRequest__Output, _tessera_v1_AudioChunk>;
  
}

export interface SpeechDefinition extends grpc.ServiceDefinition {
  ListModels: MethodDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsResponse, _tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse__Output>
  Synthesize: MethodDefinition<_tessera_v1_SynthesizeRequest, _tessera_v1_AudioChunk, _tessera_v1_SynthesizeRequest__Output, _tessera_v1_AudioChunk__Output>
}
