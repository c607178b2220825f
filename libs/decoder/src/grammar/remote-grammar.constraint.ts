// One sequence's grammar when its matcher lives in a grammar worker: `prepare` sends the tokens
// picked since the last step with the request for the next mask (one message each way, while
// the decode step runs); `process` applies the mask and the UTF-8 guard as GrammarConstraint
// does for a matcher on this thread.
import type { SequenceConstraint } from './constraint.contract';
import { applyGrammarMask } from './grammar.constraint';
import type { GrammarWorker } from './grammar-worker.client';
import type { Utf8Guard } from './utf8.guard';

export class RemoteGrammarConstraint implements SequenceConstraint {
  private mask?: Int32Array;
  private accepted: number[] = [];
  private disposed = false;

  constructor(
    private readonly worker: GrammarWorker,
    private readonly matcher: number,
    private readonly release: () => void,
    private readonly utf8?: Utf8Guard,
  ) {}

  async prepare(): Promise<void> {
    const accepted = this.accepted;
    this.accepted = [];
    this.mask = await this.worker.mask(this.matcher, accepted);
  }

  process(logits: Float32Array): void {
    const mask = this.mask;
    this.mask = undefined;
    applyGrammarMask(mask, logits, this.utf8);
  }

  accept(tokenId: number): void {
    // Checked by the worker with the next mask: a token the mask allowed always matches.
    this.accepted.push(tokenId);
    this.utf8?.accept(tokenId);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.worker.dispose([this.matcher]);
    this.release();
  }
}
