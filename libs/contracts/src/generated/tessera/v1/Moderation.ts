// Original file: tessera/v1/moderation.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClassifyRequest as _tessera_v1_ClassifyRequest, ClassifyRequest__Output as _tessera_v1_ClassifyRequest__Output } from '../../tessera/v1/ClassifyRequest';
import type { ClassifyResponse as _tessera_v1_ClassifyResponse, ClassifyResponse__Output as _tessera_v1_ClassifyResponse__Output } from '../../tessera/v1/ClassifyResponse';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from '../../tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from '../../tessera/v1/ListModelsResponse';

export interface ModerationClient extends grpc.Client {
  Classify(argument: _tessera_v1_ClassifyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  Classify(argument: _tessera_v1_ClassifyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  Classify(argument: _tessera_v1_ClassifyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  Classify(argument: _tessera_v1_ClassifyRequest, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  classify(argument: _tessera_v1_ClassifyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  classify(argument: _tessera_v1_ClassifyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  classify(argument: _tessera_v1_ClassifyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  classify(argument: _tessera_v1_ClassifyRequest, callback: grpc.requestCallback<_tessera_v1_ClassifyResponse__Output>): grpc.ClientUnaryCall;
  
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _tessera_v1_ListModelsRequest, callback: grpc.requestCallback<_tessera_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface ModerationHandlers extends grpc.UntypedServiceImplementation {
  Classify: grpc.handleUnaryCall<_tessera_v1_ClassifyRequest__Output, _tessera_v1_ClassifyResponse>;
  
  ListModels: grpc.handleUnaryCall<_tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse>;
  
}

export interface ModerationDefinition extends grpc.ServiceDefinition {
  Classify: MethodDefinition<_tessera_v1_ClassifyRequest, _tessera_v1_ClassifyResponse, _tessera_v1_ClassifyRequest__Output, _tessera_v1_ClassifyResponse__Output>
  ListModels: MethodDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsResponse, _tessera_v1_ListModelsRequest__Output, _tessera_v1_ListModelsResponse__Output>
}
