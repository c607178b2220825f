// Why an image input cannot be used, worded to follow "Invalid '<param>': " in the 400 the client
// gets. The codes are OpenAI's: `invalid_image_url` when the URL cannot be read (it answers
// "Error while downloading <url>." and "Timeout while downloading <url>." with it),
// `invalid_image_format` for bytes that are not a supported image, `invalid_image` for size.
export type ImageInputErrorCode = 'invalid_image_url' | 'invalid_image_format' | 'invalid_image';

export class ImageInputError extends Error {
  constructor(
    message: string,
    readonly code: ImageInputErrorCode = 'invalid_image_url',
  ) {
    super(message);
    this.name = 'ImageInputError';
  }
}

/** "20 MiB" when the limit is whole mebibytes (the default), else the bytes. */
export function byteLimitText(bytes: number): string {
  const MIB = 1024 * 1024;
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

export function tooLarge(limitBytes: number): ImageInputError {
  return new ImageInputError(
    `the image is larger than ${byteLimitText(limitBytes)}`,
    'invalid_image',
  );
}
