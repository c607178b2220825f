// Original file: tessera/v1/transcription.proto

import type { TranscriptDelta as _tessera_v1_TranscriptDelta, TranscriptDelta__Output as _tessera_v1_TranscriptDelta__Output } from '../../tessera/v1/TranscriptDelta';
import type { TranscribeResponse as _tessera_v1_TranscribeResponse, TranscribeResponse__Output as _tessera_v1_TranscribeResponse__Output } from '../../tessera/v1/TranscribeResponse';

export interface TranscribeEvent {
  'delta'?: (_tessera_v1_TranscriptDelta | null);
  'done'?: (_tessera_v1_TranscribeResponse | null);
  'event'?: "delta"|"done";
}

export interface TranscribeEvent__Output {
  'delta'?: (_tessera_v1_TranscriptDelta__Output | null);
  'done'?: (_tessera_v1_TranscribeResponse__Output | null);
  'event'?: "delta"|"done";
}
