// Original file: tessera/v1/speech.proto

import type { SpeechUsage as _tessera_v1_SpeechUsage, SpeechUsage__Output as _tessera_v1_SpeechUsage__Output } from '../../tessera/v1/SpeechUsage';

export interface AudioChunk {
  'data'?: (Buffer | Uint8Array | string);
  'content_type'?: (string);
  'sample_rate'?: (number);
  'usage'?: (_tessera_v1_SpeechUsage | null);
}

export interface AudioChunk__Output {
  'data': (Buffer);
  'content_type': (string);
  'sample_rate': (number);
  'usage': (_tessera_v1_SpeechUsage__Output | null);
}
