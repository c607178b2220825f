// Original file: tessera/v1/common.proto


export interface Image {
  'data'?: (Buffer | Uint8Array | string);
  'mime_type'?: (string);
  'url'?: (string);
  'detail'?: (string);
}

export interface Image__Output {
  'data': (Buffer);
  'mime_type': (string);
  'url': (string);
  'detail': (string);
}
