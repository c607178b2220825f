// Original file: tessera/v1/transcription.proto


export interface TranscriptDelta {
  'text'?: (string);
}

export interface TranscriptDelta__Output {
  'text': (string);
}
