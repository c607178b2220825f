// Original file: tessera/v1/transcription.proto


export interface Word {
  'word'?: (string);
  'start'?: (number | string);
  'end'?: (number | string);
}

export interface Word__Output {
  'word': (string);
  'start': (number);
  'end': (number);
}
