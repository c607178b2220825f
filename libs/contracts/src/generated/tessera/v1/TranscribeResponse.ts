// Original file: tessera/v1/transcription.proto

import type { Segment as _tessera_v1_Segment, Segment__Output as _tessera_v1_Segment__Output } from '../../tessera/v1/Segment';
import type { Word as _tessera_v1_Word, Word__Output as _tessera_v1_Word__Output } from '../../tessera/v1/Word';
import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from '../../tessera/v1/Usage';

export interface TranscribeResponse {
  'text'?: (string);
  'language'?: (string);
  'duration'?: (number | string);
  'segments'?: (_tessera_v1_Segment)[];
  'words'?: (_tessera_v1_Word)[];
  'usage'?: (_tessera_v1_Usage | null);
  'task'?: (string);
}

export interface TranscribeResponse__Output {
  'text': (string);
  'language': (string);
  'duration': (number);
  'segments': (_tessera_v1_Segment__Output)[];
  'words': (_tessera_v1_Word__Output)[];
  'usage': (_tessera_v1_Usage__Output | null);
  'task': (string);
}
