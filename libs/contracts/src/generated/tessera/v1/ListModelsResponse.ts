// Original file: tessera/v1/common.proto

import type { ModelInfo as _tessera_v1_ModelInfo, ModelInfo__Output as _tessera_v1_ModelInfo__Output } from '../../tessera/v1/ModelInfo';

export interface ListModelsResponse {
  'models'?: (_tessera_v1_ModelInfo)[];
}

export interface ListModelsResponse__Output {
  'models': (_tessera_v1_ModelInfo__Output)[];
}
