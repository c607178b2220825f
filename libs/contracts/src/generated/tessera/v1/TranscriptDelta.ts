// Original file: tessera/v1/transcription.proto


export interface TranscriptDelta {
  'text'?: (string);
  'audio_end'?: (number | string);
}

export interface TranscriptDelta__Output {
  'text': (string);
  'audio_end': (number);
}
