// The main thread's half of the image path: first, from each image's header alone, its tile
// grid and the request's pixel bounds (image.plan.ts); the chat template is rendered with one
// `<image>` per part, each expanded to the processor's image tokens for that grid, and the result
// tokenized (an `<image>` the client wrote is text, not a placeholder), so the caller checks the
// context before any pixel is decoded. Then, within the model's bound on images in flight, every
// image part is preprocessed on the image worker pool (in parallel, off the event loop); the
// tiles go to the decoder worker with the job.
import {
  AdmissionGate,
  OrtWorkerPool,
  OrtWorkerPoolUnavailableError,
  QueueFullError,
  WorkCancelledError,
  WorkDeadlineError,
  engineModule,
  type WorkBounds,
} from '@tessera/runtime';
import type { ChatTokenizer, PromptMessage } from '@tessera/text';
import type { ImageTiles } from '../decoder.protocol';
import { ImageDecodeError } from '../decoder.errors';
import type { ProcessedImage } from './idefics3.processor';
import { expandImagePlaceholders, type TileGrid } from './idefics3.prompt';
import type { ImageEngineTypes } from './image.engine';
import { planImages, type ImagePart } from './image.plan';
import { PromptTiles } from './prompt-tiles.buffer';
import type { VisionConfig } from './vision.config';

/** The pool's own failures (cancel, deadline, full queue, no worker): not the image's fault. */
const RUNTIME_ERRORS = [
  WorkCancelledError,
  WorkDeadlineError,
  QueueFullError,
  OrtWorkerPoolUnavailableError,
];

const IMAGE_ENGINE = engineModule<ImageEngineTypes>(__dirname, 'image.engine');

export function imageParts(messages: readonly PromptMessage[]): ImagePart[] {
  return messages.flatMap((message, m) =>
    (message.parts ?? []).flatMap((part, p) =>
      part.type === 'image'
        ? [{ image: part.image, param: `messages[${m}].content[${p}].image_url` }]
        : [],
    ),
  );
}

/** The model's bounds on image work (its options `max_image_pixels_per_request`, …). */
export interface VisionLimits {
  readonly maxPixelsPerRequest: number;
  readonly maxImagesInFlight: number;
}

/** A prompt with images, counted from the images' headers; nothing decoded yet. */
export interface PlannedPrompt {
  readonly parts: readonly ImagePart[];
  readonly grids: readonly TileGrid[];
  /** The prompt's ids with each image's tokens for its planned grid. */
  readonly promptIds: number[];
}

export class VisionPrompt {
  /**
   * Images held from before the first is decoded until the generation's first event: each costs
   * its decoded RGB on the image worker (up to 144 MB at the 48 Mpx cap) and its float32 tiles,
   * whatever its compressed size; without the bound, concurrent requests of eight large images
   * took the chat service to gigabytes.
   */
  private readonly inFlight: AdmissionGate;

  private constructor(
    private readonly pool: OrtWorkerPool<ImageEngineTypes>,
    private readonly config: VisionConfig,
    private readonly limits: VisionLimits,
  ) {
    this.inFlight = new AdmissionGate(limits.maxImagesInFlight, 'images');
  }

  /** One worker: images are short jobs, and the decoder workers need the cores. */
  static async start(
    modelDir: string,
    config: VisionConfig,
    limits: VisionLimits,
  ): Promise<VisionPrompt> {
    const pool = new OrtWorkerPool({
      engine: IMAGE_ENGINE,
      modelDir,
      engineOptions: config.processor,
      runtime: { workers: 1, intra_op_threads: 1 },
      concurrency: 2,
    });
    await pool.start();
    return new VisionPrompt(pool, config, limits);
  }

  /**
   * The prompt's ids from the images' headers (ImageDecodeError, ImageTooLargeError when they
   * cannot be used), without decoding them: what the context check needs.
   */
  plan(tokenizer: ChatTokenizer, messages: readonly PromptMessage[]): PlannedPrompt {
    const parts = imageParts(messages);
    const grids = planImages(parts, this.config.processor, this.limits.maxPixelsPerRequest);
    return { parts, grids, promptIds: this.tokenize(tokenizer, messages, grids) };
  }

  /**
   * Holds the plan's images in the model's bound on images in flight (QueueFullError when it is
   * full); call the returned function once the tiles have been used.
   */
  admit(plan: PlannedPrompt): () => void {
    return this.inFlight.enter(plan.parts.length);
  }

  /**
   * Every image's tiles, in prompt order, and the prompt's ids: the plan's, unless a decoded
   * image's grid differs from its header's (a header that lied), then counted again.
   */
  async encode(
    tokenizer: ChatTokenizer,
    messages: readonly PromptMessage[],
    plan: PlannedPrompt,
    bounds: WorkBounds,
  ): Promise<{ promptIds: number[]; images: ImageTiles }> {
    const tiles = new PromptTiles(plan.grids, this.config.processor.max_image_size.longest_edge);
    await Promise.all(
      plan.parts.map(async (part, i) => tiles.put(i, await this.process(part, bounds))),
    );
    const promptIds = tiles.planned
      ? plan.promptIds
      : this.tokenize(tokenizer, messages, tiles.processedGrids);
    return { promptIds, images: tiles.tiles() };
  }

  private tokenize(
    tokenizer: ChatTokenizer,
    messages: readonly PromptMessage[],
    grids: readonly TileGrid[],
  ): number[] {
    return tokenizer.encodeChatWithImages(messages, (rendered) =>
      expandImagePlaceholders(rendered, grids, this.config.imageSeqLen),
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async process({ image, param }: ImagePart, bounds: WorkBounds): Promise<ProcessedImage> {
    try {
      return await this.pool.execute({ data: image.data, detail: image.detail }, bounds);
    } catch (error) {
      if (RUNTIME_ERRORS.some((kind) => error instanceof kind)) throw error;
      // What is left failed on the bytes (sharp: "Input buffer contains unsupported image
      // format", a truncated file, a tile the encoder cannot take): the client's image.
      throw new ImageDecodeError(param, error);
    }
  }
}
