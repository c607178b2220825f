// Image preprocessing as an engine of @tessera/runtime's worker pool, so decoding (sharp, on
// libuv's threads) and the resizes, tiling and normalisation (plain loops, ~1–2 s for a
// 17-tile image on one core) never run on the chat service's event loop. A separate small pool
// rather than the decoder worker: the main thread needs each image's tile grid before the
// prompt can be tokenized (the image tokens are part of the context check and of
// usage.prompt_tokens), and a decoder worker busy preprocessing would stall every running stream.
import type { EngineFactory } from '@tessera/runtime';
import type { ImageDetail } from '@tessera/text';
import {
  processImage,
  type Idefics3ProcessorConfig,
  type ProcessedImage,
} from './idefics3.processor';

export interface ImageEngineTypes {
  readonly options: Idefics3ProcessorConfig;
  readonly info: Record<string, never>;
  readonly request: { readonly data: Uint8Array; readonly detail: ImageDetail };
  readonly result: ProcessedImage;
  readonly chunk: never;
}

export const createEngine: EngineFactory<ImageEngineTypes> = ({ options }) => ({
  info: {},
  run: async ({ data, detail }, job) => {
    const image = await processImage(data, detail, options);
    // Moved, not copied, back to the main thread.
    job.transfer(image.pixelValues.buffer as ArrayBuffer);
    return image;
  },
});
