// Original file: tessera/v1/speech.proto


export interface AudioChunk {
  'data'?: (Buffer | Uint8Array | string);
  'content_type'?: (string);
  'sample_rate'?: (number);
}

export interface AudioChunk__Output {
  'data': (Buffer);
  'content_type': (string);
  'sample_rate': (number);
}
