// Original file: tessera/v1/chat.proto

import type { FunctionDefinition as _tessera_v1_FunctionDefinition, FunctionDefinition__Output as _tessera_v1_FunctionDefinition__Output } from '../../tessera/v1/FunctionDefinition';

export interface Tool {
  'type'?: (string);
  'function'?: (_tessera_v1_FunctionDefinition | null);
}

export interface Tool__Output {
  'type': (string);
  'function': (_tessera_v1_FunctionDefinition__Output | null);
}
