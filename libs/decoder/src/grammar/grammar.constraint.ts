// One sequence's XGrammar matcher as the sampler's constraint stage: bans every token the
// grammar does not allow next (logit → −Infinity), before temperature and top-p, and follows the
// tokens picked. Once the value is complete the grammar allows only the model's end-of-sequence
// tokens, so the sequence ends with 'stop'; max_tokens before that ends it with 'length'.
import type { GrammarMatcher } from '@mlc-ai/web-xgrammar';
import type { SequenceConstraint } from './constraint.contract';
import type { Utf8Guard } from './utf8.guard';

const ALL_ALLOWED = -1;

export class GrammarConstraint implements SequenceConstraint {
  private mask?: Int32Array;
  private disposed = false;

  constructor(
    private readonly matcher: GrammarMatcher,
    /** Bans what XGrammar allows but UTF-8 does not (utf8.guard.ts); absent in unit tests. */
    private readonly utf8?: Utf8Guard,
  ) {}

  async prepare(): Promise<void> {
    this.mask = await this.matcher.getNextTokenBitmask();
  }

  process(logits: Float32Array): void {
    const mask = this.mask;
    this.mask = undefined;
    applyGrammarMask(mask, logits, this.utf8);
  }

  accept(tokenId: number): void {
    if (!this.matcher.acceptToken(tokenId)) {
      // Cannot happen for a token the mask allowed; a bug must not produce invalid output.
      throw new Error(`token ${tokenId} does not match the grammar`);
    }
    this.utf8?.accept(tokenId);
  }

  get terminated(): boolean {
    return this.matcher.isTerminated();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.matcher.dispose();
  }
}

/** A constraint stage's work once its step's mask is known: the mask, then the UTF-8 guard. */
export function applyGrammarMask(
  mask: Int32Array | undefined,
  logits: Float32Array,
  utf8?: Utf8Guard,
): void {
  if (!mask) throw new Error('grammar mask not prepared for this step');
  applyTokenBitmask(mask, logits);
  utf8?.process(logits);
}

/** Bit `id % 32` of word `id / 32` set = token allowed; logits past the mask's bits are banned. */
export function applyTokenBitmask(mask: Int32Array, logits: Float32Array): void {
  const size = logits.length;
  for (let word = 0; word < mask.length; word++) {
    const bits = mask[word];
    if (bits === ALL_ALLOWED) continue;
    const base = word * 32;
    const end = Math.min(32, size - base);
    for (let bit = 0; bit < end; bit++) {
      if ((bits & (1 << bit)) === 0) logits[base + bit] = -Infinity;
    }
  }
  for (let id = mask.length * 32; id < size; id++) logits[id] = -Infinity;
}
