// Original file: tessera/v1/chat.proto


export interface ToolCallDelta {
  'index'?: (number);
  'id'?: (string);
  'type'?: (string);
  'name'?: (string);
  'arguments'?: (string);
}

export interface ToolCallDelta__Output {
  'index': (number);
  'id': (string);
  'type': (string);
  'name': (string);
  'arguments': (string);
}
