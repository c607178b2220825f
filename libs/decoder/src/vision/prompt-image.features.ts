// A prompt's image features in the decoder worker: its tiles go through the vision encoder one
// per scheduler step (a running stream waits at most one tile per token), and once all are in,
// each prefill chunk takes the feature rows of its image tokens, in prompt order.
import type { ImageTiles } from '../decoder.protocol';
import type { ImageSplice, VisionSessions } from './vision.session';

export class PromptImageFeatures {
  /** The features of the tiles encoded so far, in tile order. */
  private tiles: Float32Array[] = [];
  /** All of them in one buffer once every tile is encoded (prompt order of the image tokens). */
  private features?: Float32Array;
  /** Image tokens of the prompt already prefilled (feature rows used). */
  private used = 0;

  constructor(
    private readonly vision: VisionSessions,
    private readonly images: ImageTiles,
  ) {}

  /** Whether every tile has been through the encoder: the prompt can be prefilled. */
  get encoded(): boolean {
    return this.features !== undefined;
  }

  /** The next tile through the vision encoder. */
  async encodeNextTile(): Promise<void> {
    const { tiles, images } = this;
    tiles.push(await this.vision.tileFeatures(images, tiles.length));
    if (tiles.length < images.tiles) return;
    // One buffer for the splice, in tile order (= the order of the prompt's image tokens).
    const all = new Float32Array(tiles.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const part of tiles) {
      all.set(part, at);
      at += part.length;
    }
    this.features = all;
    this.tiles = [];
  }

  /** The features for the prompt's next chunk `ids`, whose image tokens are then used. */
  spliceFor(ids: readonly number[]): ImageSplice {
    if (!this.features) throw new Error('a prompt prefilled before its images were encoded');
    const splice = { features: this.features, before: this.used };
    this.used += ids.filter((id) => id === this.vision.imageTokenId).length;
    return splice;
  }
}
