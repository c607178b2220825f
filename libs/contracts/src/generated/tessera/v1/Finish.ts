// Original file: tessera/v1/chat.proto

import type { Usage as _tessera_v1_Usage, Usage__Output as _tessera_v1_Usage__Output } from '../../tessera/v1/Usage';

export interface Finish {
  'finish_reason'?: (string);
  'usage'?: (_tessera_v1_Usage | null);
}

export interface Finish__Output {
  'finish_reason': (string);
  'usage': (_tessera_v1_Usage__Output | null);
}
