// Original file: tessera/v1/common.proto

import type { Long } from '@grpc/proto-loader';

export interface ModelInfo {
  'id'?: (string);
  'aliases'?: (string)[];
  'capabilities'?: (string)[];
  'created'?: (number | string | Long);
  'owned_by'?: (string);
  'context_length'?: (number);
  'uncovered_categories'?: (string)[];
  'voices'?: (string)[];
}

export interface ModelInfo__Output {
  'id': (string);
  'aliases': (string)[];
  'capabilities': (string)[];
  'created': (number);
  'owned_by': (string);
  'context_length': (number);
  'uncovered_categories': (string)[];
  'voices': (string)[];
}
