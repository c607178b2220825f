// Original file: tessera/v1/chat.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GenerateRequest as _tessera_v1_GenerateRequest, GenerateRequest__Output as _tessera_v1_GenerateRequest__Output } from '../../tessera/v1/GenerateRequest';
import type { GenerateResponse as _tessera_v1_GenerateResponse, GenerateResponse__Output as _tessera_v1_GenerateResponse__Output } from '../../tessera/v1/GenerateResponse';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from '../../tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from '../../tessera/v1/ListModelsResponse';

export interface ChatClient extends grpc.Client {
  Generate(argument: _tessera_v1_GenerateRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_GenerateResponse__Output>;
  Generate(argument: _tessera_v1_GenerateRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_GenerateResponse__Output>;
  generate(argument: _tessera_v1_GenerateRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_GenerateResponse__Output>;
  generate(argument: _tessera_v1_GenerateRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_tessera_v1_GenerateResponse__Output>;
  
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface ChatHandlers extends grpc.UntypedServiceImplementation {
  Generate: grpc.handleServerStreamingCall<_tessera_v1_GenerateRequest__Output, _tessera_v1_GenerateResponse>;
  
  ListModels: grpc.handleUnaryCall<_tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse>;
  
}

export interface ChatDefinition extends grpc.ServiceDefinition {
  Generate: MethodDefinition<_tessera_v1_GenerateRequest, _tessera_v1_GenerateResponse, _tessera_v1_GenerateRequest__Output, _tessera_v1_GenerateResponse__Output>
  ListModels: MethodDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsResponse, _tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse__Output>
}
