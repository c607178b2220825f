// Original file: tessera/v1/speech.proto


export interface SpeechUsage {
  'input_tokens'?: (number);
  'output_tokens'?: (number);
}

export interface SpeechUsage__Output {
  'input_tokens': (number);
  'output_tokens': (number);
}
