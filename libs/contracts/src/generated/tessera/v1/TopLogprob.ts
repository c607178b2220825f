// Original file: tessera/v1/chat.proto


export interface TopLogprob {
  'token'?: (string);
  'logprob'?: (number | string);
  'bytes'?: (Buffer | Uint8Array | string);
}

export interface TopLogprob__Output {
  'token': (string);
  'logprob': (number);
  'bytes': (Buffer);
}
