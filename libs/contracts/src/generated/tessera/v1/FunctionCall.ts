// Original file: tessera/v1/chat.proto


export interface FunctionCall {
  'name'?: (string);
  'arguments'?: (string);
}

export interface FunctionCall__Output {
  'name': (string);
  'arguments': (string);
}
