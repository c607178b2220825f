// Original file: tessera/v1/chat.proto


export interface ToolChoice {
  'mode'?: (string);
  'function_name'?: (string);
  'choice'?: "mode"|"function_name";
}

export interface ToolChoice__Output {
  'mode'?: (string);
  'function_name'?: (string);
  'choice'?: "mode"|"function_name";
}
