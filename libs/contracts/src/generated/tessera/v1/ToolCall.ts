// Original file: tessera/v1/chat.proto

import type { FunctionCall as _tessera_v1_FunctionCall, FunctionCall__Output as _tessera_v1_FunctionCall__Output } from '../../tessera/v1/FunctionCall';

export interface ToolCall {
  'id'?: (string);
  'type'?: (string);
  'function'?: (_tessera_v1_FunctionCall | null);
}

export interface ToolCall__Output {
  'id': (string);
  'type': (string);
  'function': (_tessera_v1_FunctionCall__Output | null);
}
