// Original file: tessera/v1/chat.proto

import type { ContentPart as _tessera_v1_ContentPart, ContentPart__Output as _tessera_v1_ContentPart__Output } from '../../tessera/v1/ContentPart';
import type { ToolCall as _tessera_v1_ToolCall, ToolCall__Output as _tessera_v1_ToolCall__Output } from '../../tessera/v1/ToolCall';

export interface ChatMessage {
  'role'?: (string);
  'content'?: (_tessera_v1_ContentPart)[];
  'name'?: (string);
  'tool_calls'?: (_tessera_v1_ToolCall)[];
  'tool_call_id'?: (string);
}

export interface ChatMessage__Output {
  'role': (string);
  'content': (_tessera_v1_ContentPart__Output)[];
  'name': (string);
  'tool_calls': (_tessera_v1_ToolCall__Output)[];
  'tool_call_id': (string);
}
