// Original file: tessera/v1/embeddings.proto


export interface Embedding {
  'data'?: (Buffer | Uint8Array | string);
  'dimensions'?: (number);
}

export interface Embedding__Output {
  'data': (Buffer);
  'dimensions': (number);
}
