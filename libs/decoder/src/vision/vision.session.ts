// The worker's half of the image path: a vision-language model's two graphs beside its decoder.
// embed_tokens turns ids into the decoder's inputs_embeds (every prefill chunk and decode step);
// vision_encoder turns a job's tiles into image features, one tile per scheduler step before its
// first prefill chunk, and those replace the embeddings of the prompt's image tokens in order
// (transformers' inputs_merger / masked_scatter).
import { join } from 'node:path';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import type { ImageTiles, VisionGraphs } from '../decoder.protocol';

/** Image features and where a prefill chunk starts in them. */
export interface ImageSplice {
  /** Every image token's feature row, in prompt order (image tokens × hidden). */
  readonly features: Float32Array;
  /** Image tokens of the prompt before this chunk (rows of `features` already used). */
  readonly before: number;
}

export class VisionSessions {
  private constructor(
    private readonly vision: InferenceSession,
    private readonly embed: InferenceSession,
    readonly imageTokenId: number,
  ) {}

  static async open(
    modelDir: string,
    graphs: VisionGraphs,
    create: (path: string) => Promise<InferenceSession>,
  ): Promise<VisionSessions> {
    const vision = await create(join(modelDir, graphs.visionFile));
    const embed = await create(join(modelDir, graphs.embedFile));
    for (const [session, input, output] of [
      [vision, 'pixel_values', 'image_features'],
      [embed, 'input_ids', 'inputs_embeds'],
    ] as const) {
      if (!session.inputNames.includes(input) || !session.outputNames.includes(output)) {
        throw new Error(
          `${modelDir}: expected ${input} → ${output}, the graph has [${session.inputNames}] → ` +
            `[${session.outputNames}]`,
        );
      }
    }
    return new VisionSessions(vision, embed, graphs.imageTokenId);
  }

  /** inputs_embeds of `ids` (rows × step), float32 [rows, step, hidden]. */
  async embedTokens(ids: BigInt64Array, rows: number, step: number): Promise<Tensor> {
    const out = await this.embed.run({ input_ids: new Tensor('int64', ids, [rows, step]) });
    const embeds = out.inputs_embeds;
    if (embeds.type !== 'float32') {
      throw new Error(`embed_tokens gives ${embeds.type}; this engine splices float32 embeddings`);
    }
    return embeds as Tensor;
  }

  /**
   * One tile through the vision encoder: its image tokens × hidden. One tile per call, so the
   * scheduler can run decode steps between the tiles of a many-tile prompt.
   */
  async tileFeatures(images: ImageTiles, tile: number): Promise<Float32Array> {
    const { side, pixelValues } = images;
    const plane = 3 * side * side;
    const feeds: Record<string, Tensor> = {
      pixel_values: new Tensor('float32', pixelValues.subarray(tile * plane, (tile + 1) * plane), [
        1,
        1,
        3,
        side,
        side,
      ]),
    };
    // transformers.js's exports take the mask of padded pixels; Idefics3 tiles are never padded.
    if (this.vision.inputNames.includes('pixel_attention_mask')) {
      feeds.pixel_attention_mask = new Tensor('bool', new Uint8Array(side * side).fill(1), [
        1,
        1,
        side,
        side,
      ]);
    }
    const out = await this.vision.run(feeds);
    return out.image_features.data as Float32Array;
  }

  /**
   * Replaces, in `embeds` (rows × step × hidden, one row here), the embedding of each image
   * token of `ids` by the next image feature row.
   */
  splice(embeds: Float32Array, ids: ArrayLike<bigint>, splice: ImageSplice): void {
    const hidden = embeds.length / ids.length;
    let next = splice.before;
    for (let i = 0; i < ids.length; i++) {
      if (Number(ids[i]) !== this.imageTokenId) continue;
      const from = next * hidden;
      if (from + hidden > splice.features.length) {
        throw new Error(`the prompt has more image tokens than the images gave features`);
      }
      embeds.set(splice.features.subarray(from, from + hidden), i * hidden);
      next++;
    }
  }

  async release(): Promise<void> {
    await this.vision.release();
    await this.embed.release();
  }
}
