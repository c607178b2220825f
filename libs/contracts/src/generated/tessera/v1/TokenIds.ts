// Original file: tessera/v1/embeddings.proto


export interface TokenIds {
  'ids'?: (number)[];
}

export interface TokenIds__Output {
  'ids': (number)[];
}
