// Original file: tessera/v1/common.proto


export interface Usage {
  'prompt_tokens'?: (number);
  'completion_tokens'?: (number);
  'total_tokens'?: (number);
}

export interface Usage__Output {
  'prompt_tokens': (number);
  'completion_tokens': (number);
  'total_tokens': (number);
}
