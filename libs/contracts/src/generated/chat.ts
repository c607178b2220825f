import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ChatClient as _tessera_v1_ChatClient, ChatDefinition as _tessera_v1_ChatDefinition } from './tessera/v1/Chat';
import type { ChatMessage as _tessera_v1_ChatMessage, ChatMessage__Output as _tessera_v1_ChatMessage__Output } from './tessera/v1/ChatMessage';
import type { ContentPart as _tessera_v1_ContentPart, ContentPart__Output as _tessera_v1_ContentPart__Output } from './tessera/v1/ContentPart';
import type { Delta as _tessera_v1_Delta, Delta__Output as _tessera_v1_Delta__Output } from './tessera/v1/Delta';
import type { Finish as _tessera_v1_Finish, Finish__Output as _tessera_v1_Finish__Output } from './tessera/v1/Finish';
import type { FunctionCall as _tessera_v1_FunctionCall, FunctionCall__Output as _tessera_v1_FunctionCall__Output } from './tessera/v1/FunctionCall';
import type { FunctionDefinition as _tessera_v1_FunctionDefinition, FunctionDefinition__Output as _tessera_v1_FunctionDefinition__Output } from './tessera/v1/FunctionDefinition';
import type { GenerateRequest as _tessera_v1_GenerateRequest, GenerateRequest__Output as _tessera_v1_GenerateRequest__Output } from './tessera/v1/GenerateRequest';
import type { GenerateResponse as _tessera_v1_GenerateResponse, GenerateResponse__Output as _tessera_v1_GenerateResponse__Output } from './tessera/v1/GenerateResponse';
import type { Image as _tessera_v1_Image, Image__Output as _tessera_v1_Image__Output } from './tessera/v1/Image';
import type { ListModelsRequest as _tessera_v1_ListModelsRequest, ListModelsRequest__Output as _tessera_v1_ListModelsRequest__Output } from './tessera/v1/ListModelsRequest';
import type { ListModelsResponse as _tessera_v1_ListModelsResponse, ListModelsResponse__Output as _tessera_v1_ListModelsResponse__Output } from './tessera/v1/ListModelsResponse';
import type { ModelInfo as _tessera_v1_ModelInfo, ModelInfo__Output as _tessera_v1_ModelInfo__Output } from './tessera/v1/ModelInfo';
import type { ResponseFormat as _tessera_v1_ResponseFormat, ResponseFormat__Output as _tessera_v1_ResponseFormat__Output } from './tessera/v1/ResponseFormat';
import type { SamplingParams as _tessera_v1_SamplingParams, SamplingParams__Output as _tessera_v1_SamplingParams__Output } from './tessera/v1/SamplingParams';
import type { TokenLogprob as _tessera_v1_TokenLogprob, TokenLogprob__Output as _tessera_v1_TokenLogprob__Output } from './tessera/v1/TokenLogprob';
import type { Tool as _tessera_v1_Tool, Tool__Output as _tessera_v1_Tool__Output } from './tessera/v1/Tool';
import type { ToolCall as _tessera_v1_ToolCall, ToolCall__Output as _tessera_v1_ToolCall__Output } from './tessera/v1/ToolCall';
import type { ToolCallDelta as _tessera_v1_ToolCallDelta, ToolCallDelta__Output as _tessera_v1_ToolCallDelta__Output } from './tessera/v1/ToolCallDelta';
import type { ToolChoice as _tessera_v1_ToolChoice, ToolChoice__Output as _tessera_v1_ToolChoice__Output } from './tessera/v1/ToolChoice';
import type { TopLogprob as _tessera_v1_TopLogprob, TopLogprob__Output as _tessera_v1_TopLogprob__Output } from './tessera/v1/TopLogprob';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from './tessera/v1/Usage';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  tessera: {
    v1: {
      Chat: SubtypeConstructor<typeof grpc.Client, _tessera_v1_ChatClient> & { service: _tessera_v1_ChatDefinition }
      ChatMessage: MessageTypeDefinition<_tessera_v1_ChatMessage, _tessera_v1_ChatMessage__Output>
      ContentPart: MessageTypeDefinition<_tessera_v1_ContentPart, _tessera_v1_ContentPart__Output>
      Delta: MessageTypeDefinition<_tessera_v1_Delta, _tessera_v1_Delta__Output>
      Finish: MessageTypeDefinition<_tessera_v1_Finish, _tessera_v1_Finish__Output>
      FunctionCall: MessageTypeDefinition<_tessera_v1_FunctionCall, _tessera_v1_FunctionCall__Output>
      FunctionDefinition: MessageTypeDefinition<_tessera_v1_FunctionDefinition, _tessera_v1_FunctionDefinition__Output>
      GenerateRequest: MessageTypeDefinition<_tessera_v1_GenerateRequest, _tessera_v1_GenerateRequest__Output>
      GenerateResponse: MessageTypeDefinition<_tessera_v1_GenerateResponse, _tessera_v1_GenerateResponse__Output>
      Image: MessageTypeDefinition<_tessera_v1_Image, _tessera_v1_Image__Output>
      ListModelsRequest: MessageTypeDefinition<_tessera_v1_ListModelsRequest, _tessera_v1_ListModelsRequest__Output>
      ListModelsResponse: MessageTypeDefinition<_tessera_v1_ListModelsResponse, _tessera_v1_ListModelsResponse__Output>
      ModelInfo: MessageTypeDefinition<_tessera_v1_ModelInfo, _tessera_v1_ModelInfo__Output>
      ResponseFormat: MessageTypeDefinition<_tessera_v1_ResponseFormat, _tessera_v1_ResponseFormat__Output>
      SamplingParams: MessageTypeDefinition<_tessera_v1_SamplingParams, _tessera_v1_SamplingParams__Output>
      TokenLogprob: MessageTypeDefinition<_tessera_v1_TokenLogprob, _tessera_v1_TokenLogprob__Output>
      Tool: MessageTypeDefinition<_tessera_v1_Tool, _tessera_v1_Tool__Output>
      ToolCall: MessageTypeDefinition<_tessera_v1_ToolCall, _tessera_v1_ToolCall__Output>
      ToolCallDelta: MessageTypeDefinition<_tessera_v1_ToolCallDelta, _tessera_v1_ToolCallDelta__Output>
      ToolChoice: MessageTypeDefinition<_tessera_v1_ToolChoice, _tessera_v1_ToolChoice__Output>
      TopLogprob: MessageTypeDefinition<_tessera_v1_TopLogprob, _tessera_v1_TopLogprob__Output>
      Usage: MessageTypeDefinition<_tessera_v1_Usage, _tessera_v1_Usage__Output>
    }
  }
}

