// Original file: tessera/v1/embeddings.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { EmbedRequest as _tessera_v1_EmbedRequest, EmbedRequest__Output as _tessera_v1_EmbedRequest__Output } from '../../tessera/v1/EmbedRequest';
import type { EmbedResponse as _tessera_v1_EmbedResponse, EmbedResponse__Output as _tessera_v1_EmbedResponse__Output } from '../../tessera/v1/EmbedResponse';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from '../../tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from '../../tessera/v1/ListModelsResponse';

export interface EmbeddingsClient extends grpc.Client {
  Embed(argument: _tessera_v1_EmbedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  Embed(argument: _tessera_v1_EmbedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  Embed(argument: _tessera_v1_EmbedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  Embed(argument: _tessera_v1_EmbedRequest, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  embed(argument: _tessera_v1_EmbedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  embed(argument: _tessera_v1_EmbedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  embed(argument: _tessera_v1_EmbedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  embed(argument: _tessera_v1_EmbedRequest, callback: grpc.requestCallback<_tessera_v1_EmbedResponse__Output>): grpc.ClientUnaryCall;
  
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface EmbeddingsHandlers extends grpc.UntypedServiceImplementation {
  Embed: grpc.handleUnaryCall<_tessera_v1_EmbedRequest__Output, _tessera_v1_EmbedResponse>;
  
  ListModels: grpc.handleUnaryCall<_tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse>;
  
}

export interface EmbeddingsDefinition extends grpc.ServiceDefinition {
  Embed: MethodDefinition<_tessera_v1_EmbedRequest, _tessera_v1_EmbedResponse, _tessera_v1_EmbedRequest__Output, _tessera_v1_EmbedResponse__Output>
  ListModels: MethodDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsResponse, _tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse__Output>
}
