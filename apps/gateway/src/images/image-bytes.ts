import type { ImageMimeType } from './image-format.check';

/** An image input read into memory: what the chat service receives in proto `Image`. */
export interface ImageBytes {
  data: Buffer;
  mimeType: ImageMimeType;
}
