// The uploaded file held once, as it arrives, in blocks of at most 1 MiB: the size of the gRPC
// audio messages it is later sent as, so each byte is copied once (from the socket's chunks into
// a block) and a 25 MB upload becomes 25 messages rather than hundreds of 64 KiB ones.

/** The most audio bytes one TranscribeRequest carries. */
export const AUDIO_MESSAGE_BYTES = 1024 * 1024;

export class AudioUploadBuffer {
  private readonly blocks: Buffer[] = [];
  private current: Buffer | undefined;
  private filled = 0;
  private total = 0;

  constructor(private readonly blockBytes = AUDIO_MESSAGE_BYTES) {}

  get bytes(): number {
    return this.total;
  }

  append(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (!this.current || this.filled === this.current.length) this.startBlock();
      const block = this.current!;
      const copied = Math.min(block.length - this.filled, chunk.length - offset);
      block.set(chunk.subarray(offset, offset + copied), this.filled);
      this.filled += copied;
      offset += copied;
    }
    this.total += chunk.length;
  }

  /**
   * The blocks in order, each released as it is handed over, so the memory of what has been
   * sent on is freed while the rest is still being sent. Takes the content: call once.
   */
  *take(): Generator<Buffer> {
    if (this.current) this.blocks.push(this.current.subarray(0, this.filled));
    this.current = undefined;
    while (this.blocks.length > 0) yield this.blocks.shift()!;
  }

  private startBlock(): void {
    if (this.current) this.blocks.push(this.current);
    // Unsafe: every byte handed over is written first (the last block is cut to what was).
    this.current = Buffer.allocUnsafe(this.blockBytes);
    this.filled = 0;
  }
}
