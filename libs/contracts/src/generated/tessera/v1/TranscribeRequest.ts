// Original file: tessera/v1/transcription.proto

import type { TranscriptionConfig as _tessera_v1_TranscriptionConfig, TranscriptionConfig__Output as _tessera_v1_TranscriptionConfig__Output } from '../../tessera/v1/TranscriptionConfig';

export interface TranscribeRequest {
  'config'?: (_tessera_v1_TranscriptionConfig | null);
  'audio'?: (Buffer | Uint8Array | string);
  'part'?: "config"|"audio";
}

export interface TranscribeRequest__Output {
  'config'?: (_tessera_v1_TranscriptionConfig__Output | null);
  'audio'?: (Buffer);
  'part'?: "config"|"audio";
}
