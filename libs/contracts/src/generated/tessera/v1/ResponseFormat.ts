// Original file: tessera/v1/chat.proto


export interface ResponseFormat {
  'type'?: (string);
  'name'?: (string);
  'schema_json'?: (string);
  'strict'?: (boolean);
}

export interface ResponseFormat__Output {
  'type': (string);
  'name': (string);
  'schema_json': (string);
  'strict': (boolean);
}
