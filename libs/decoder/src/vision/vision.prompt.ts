// The main thread's half of the image path: every image part is preprocessed on the image
// worker pool (in parallel, off the event loop), the chat template is rendered with one
// `<image>` per part, each is expanded to the processor's image tokens for that image's tile
// grid, and the result is tokenized (an `<image>` the client wrote is text, not a placeholder). The tiles go to the decoder worker with the job.
import {
  OrtWorkerPool,
  OrtWorkerPoolUnavailableError,
  QueueFullError,
  WorkCancelledError,
  WorkDeadlineError,
  engineModule,
  type WorkBounds,
} from '@tessera/runtime';
import type { ChatTokenizer } from '@tessera/text';
import type { ImageInput, ImageTiles, PromptMessage } from '../decoder.protocol';
import { ImageDecodeError } from '../decoder.errors';
import type { ProcessedImage } from './idefics3.processor';
import { expandImagePlaceholders } from './idefics3.prompt';
import type { ImageEngineTypes } from './image.engine';
import type { VisionConfig } from './vision.config';

/** The pool's own failures (cancel, deadline, full queue, no worker): not the image's fault. */
const RUNTIME_ERRORS = [
  WorkCancelledError,
  WorkDeadlineError,
  QueueFullError,
  OrtWorkerPoolUnavailableError,
];

const IMAGE_ENGINE = engineModule<ImageEngineTypes>(__dirname, 'image.engine');

/** An image part and where the client put it (for errors). */
interface ImagePart {
  readonly image: ImageInput;
  readonly param: string;
}

export function imageParts(messages: readonly PromptMessage[]): ImagePart[] {
  return messages.flatMap((message, m) =>
    (message.parts ?? []).flatMap((part, p) =>
      part.type === 'image'
        ? [{ image: part.image, param: `messages[${m}].content[${p}].image_url` }]
        : [],
    ),
  );
}

export class VisionPrompt {
  private constructor(
    private readonly pool: OrtWorkerPool<ImageEngineTypes>,
    private readonly config: VisionConfig,
  ) {}

  /** One worker: images are short jobs, and the decoder workers need the cores. */
  static async start(modelDir: string, config: VisionConfig): Promise<VisionPrompt> {
    const pool = new OrtWorkerPool({
      engine: IMAGE_ENGINE,
      modelDir,
      engineOptions: config.processor,
      runtime: { workers: 1, intra_op_threads: 1 },
      concurrency: 2,
    });
    await pool.start();
    return new VisionPrompt(pool, config);
  }

  /** The prompt's ids (image tokens expanded) and every image's tiles, in prompt order. */
  async encode(
    tokenizer: ChatTokenizer,
    messages: readonly PromptMessage[],
    bounds: WorkBounds,
  ): Promise<{ promptIds: number[]; images: ImageTiles }> {
    const parts = imageParts(messages);
    const processed = await Promise.all(parts.map((part) => this.process(part, bounds)));
    const promptIds = tokenizer.encodeChatWithImages(messages, (rendered) =>
      expandImagePlaceholders(rendered, processed, this.config.imageSeqLen),
    );
    return { promptIds, images: concatTiles(processed) };
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

function concatTiles(images: readonly ProcessedImage[]): ImageTiles {
  const tiles = images.reduce((sum, image) => sum + image.tiles, 0);
  const pixelValues = new Float32Array(images.reduce((sum, i) => sum + i.pixelValues.length, 0));
  let at = 0;
  for (const image of images) {
    pixelValues.set(image.pixelValues, at);
    at += image.pixelValues.length;
  }
  return { pixelValues, tiles, side: images[0].side };
}
