// Original file: tessera/v1/chat.proto

import type { ChatMessage as _tessera_v1_ChatMessage, ChatMessage__Output as _tessera_v1_ChatMessage__Output } from '../../tessera/v1/ChatMessage';
import type { Tool as _tessera_v1_Tool, Tool__Output as _tessera_v1_Tool__Output } from '../../tessera/v1/Tool';
import type { ToolChoice as _tessera_v1_ToolChoice, ToolChoice__Output as _tessera_v1_ToolChoice__Output } from '../../tessera/v1/ToolChoice';
import type { ResponseFormat as _tessera_v1_ResponseFormat, ResponseFormat__Output as _tessera_v1_ResponseFormat__Output } from '../../tessera/v1/ResponseFormat';
import type { SamplingParams as _tessera_v1_SamplingParams, SamplingParams__Output as _tessera_v1_SamplingParams__Output } from '../../tessera/v1/SamplingParams';

export interface GenerateRequest {
  'model'?: (string);
  'messages'?: (_tessera_v1_ChatMessage)[];
  'tools'?: (_tessera_v1_Tool)[];
  'tool_choice'?: (_tessera_v1_ToolChoice | null);
  'parallel_tool_calls'?: (boolean);
  'response_format'?: (_tessera_v1_ResponseFormat | null);
  'sampling'?: (_tessera_v1_SamplingParams | null);
  'user'?: (string);
}

export interface GenerateRequest__Output {
  'model': (string);
  'messages': (_tessera_v1_ChatMessage__Output)[];
  'tools': (_tessera_v1_Tool__Output)[];
  'tool_choice': (_tessera_v1_ToolChoice__Output | null);
  'parallel_tool_calls': (boolean);
  'response_format': (_tessera_v1_ResponseFormat__Output | null);
  'sampling': (_tessera_v1_SamplingParams__Output | null);
  'user': (string);
}
