// Original file: tessera/v1/chat.proto

import type { Delta as _tessera_v1_Delta, Delta__Output as _tessera_v1_Delta__Output } from '../../tessera/v1/Delta';
import type { Finish as _tessera_v1_Finish, Finish__Output as _tessera_v1_Finish__Output } from '../../tessera/v1/Finish';

export interface GenerateResponse {
  'choice_index'?: (number);
  'delta'?: (_tessera_v1_Delta | null);
  'finish'?: (_tessera_v1_Finish | null);
  'frame'?: "delta"|"finish";
}

export interface GenerateResponse__Output {
  'choice_index': (number);
  'delta'?: (_tessera_v1_Delta__Output | null);
  'finish'?: (_tessera_v1_Finish__Output | null);
  'frame'?: "delta"|"finish";
}
