// Original file: tessera/v1/transcription.proto


export interface Segment {
  'id'?: (number);
  'seek'?: (number);
  'start'?: (number | string);
  'end'?: (number | string);
  'text'?: (string);
  'tokens'?: (number)[];
  'temperature'?: (number | string);
  'avg_logprob'?: (number | string);
  'compression_ratio'?: (number | string);
  'no_speech_prob'?: (number | string);
}

export interface Segment__Output {
  'id': (number);
  'seek': (number);
  'start': (number);
  'end': (number);
  'text': (string);
  'tokens': (number)[];
  'temperature': (number);
  'avg_logprob': (number);
  'compression_ratio': (number);
  'no_speech_prob': (number);
}
