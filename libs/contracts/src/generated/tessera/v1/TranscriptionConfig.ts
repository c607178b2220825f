// Original file: tessera/v1/transcription.proto


export interface TranscriptionConfig {
  'model'?: (string);
  'task'?: (string);
  'language'?: (string);
  'prompt'?: (string);
  'temperature'?: (number | string);
  'timestamp_granularities'?: (string)[];
  'filename'?: (string);
  'content_type'?: (string);
  'stream'?: (boolean);
}

export interface TranscriptionConfig__Output {
  'model': (string);
  'task': (string);
  'language': (string);
  'prompt': (string);
  'temperature': (number);
  'timestamp_granularities': (string)[];
  'filename': (string);
  'content_type': (string);
  'stream': (boolean);
}
