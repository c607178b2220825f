// Original file: tessera/v1/speech.proto


export interface SynthesizeRequest {
  'model'?: (string);
  'input'?: (string);
  'voice'?: (string);
  'response_format'?: (string);
  'speed'?: (number | string);
  'instructions'?: (string);
}

export interface SynthesizeRequest__Output {
  'model': (string);
  'input': (string);
  'voice': (string);
  'response_format': (string);
  'speed': (number);
  'instructions': (string);
}
