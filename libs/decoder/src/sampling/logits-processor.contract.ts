// A stage that edits one sequence's logits row in place before the next token is picked:
// repetition_penalty, presence/frequency penalties, logit_bias and the grammar mask.
// Stages are built per sequence, so a stage may keep that sequence's state (counts, a parser).

export interface LogitsProcessor {
  /** Edits the row (`vocabSize` logits) in place; a token it bans gets `-Infinity`. */
  process(logits: Float32Array): void;
  /** The token picked this step, so stateful stages can move on. */
  accept?(tokenId: number): void;
}
