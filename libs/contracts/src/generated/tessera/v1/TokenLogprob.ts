// Original file: tessera/v1/chat.proto

import type { TopLogprob as _tessera_v1_TopLogprob, TopLogprob__Output as _tessera_v1_TopLogprob__Output } from '../../tessera/v1/TopLogprob';

export interface TokenLogprob {
  'token'?: (string);
  'logprob'?: (number | string);
  'bytes'?: (Buffer | Uint8Array | string);
  'top_logprobs'?: (_tessera_v1_TopLogprob)[];
}

export interface TokenLogprob__Output {
  'token': (string);
  'logprob': (number);
  'bytes': (Buffer);
  'top_logprobs': (_tessera_v1_TopLogprob__Output)[];
}
