// Original file: tessera/v1/chat.proto


export interface FunctionDefinition {
  'name'?: (string);
  'description'?: (string);
  'parameters_json'?: (string);
  'strict'?: (boolean);
}

export interface FunctionDefinition__Output {
  'name': (string);
  'description': (string);
  'parameters_json': (string);
  'strict': (boolean);
}
