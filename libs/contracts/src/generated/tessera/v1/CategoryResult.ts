// Original file: tessera/v1/moderation.proto


export interface CategoryResult {
  'category'?: (string);
  'score'?: (number | string);
  'flagged'?: (boolean);
  'applied_input_types'?: (string)[];
}

export interface CategoryResult__Output {
  'category': (string);
  'score': (number);
  'flagged': (boolean);
  'applied_input_types': (string)[];
}
