// Original file: tessera/v1/chat.proto

import type { Long } from '@grpc/proto-loader';

export interface SamplingParams {
  'temperature'?: (number | string);
  'top_p'?: (number | string);
  'top_k'?: (number);
  'min_p'?: (number | string);
  'seed'?: (number | string | Long);
  'frequency_penalty'?: (number | string);
  'presence_penalty'?: (number | string);
  'repetition_penalty'?: (number | string);
  'logit_bias'?: ({[key: number]: number | string});
  'stop'?: (string)[];
  'max_tokens'?: (number);
  'logprobs'?: (boolean);
  'top_logprobs'?: (number);
  'n'?: (number);
  '_temperature'?: "temperature";
  '_top_p'?: "top_p";
  '_top_k'?: "top_k";
  '_min_p'?: "min_p";
  '_seed'?: "seed";
  '_frequency_penalty'?: "frequency_penalty";
  '_presence_penalty'?: "presence_penalty";
  '_repetition_penalty'?: "repetition_penalty";
  '_max_tokens'?: "max_tokens";
}

export interface SamplingParams__Output {
  'temperature'?: (number);
  'top_p'?: (number);
  'top_k'?: (number);
  'min_p'?: (number);
  'seed'?: (number);
  'frequency_penalty'?: (number);
  'presence_penalty'?: (number);
  'repetition_penalty'?: (number);
  'logit_bias': ({[key: number]: number});
  'stop': (string)[];
  'max_tokens'?: (number);
  'logprobs': (boolean);
  'top_logprobs': (number);
  'n': (number);
  '_temperature'?: "temperature";
  '_top_p'?: "top_p";
  '_top_k'?: "top_k";
  '_min_p'?: "min_p";
  '_seed'?: "seed";
  '_frequency_penalty'?: "frequency_penalty";
  '_presence_penalty'?: "presence_penalty";
  '_repetition_penalty'?: "repetition_penalty";
  '_max_tokens'?: "max_tokens";
}
