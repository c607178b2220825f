// Turns a batch of token-id sequences into the int64 tensors an encoder graph takes.
// Rows are right-padded, which is what makes `lengths` a faithful attention mask for pooling.

export interface EncoderFeeds {
  readonly batch: number;
  readonly sequence: number;
  /** Real (unpadded) token count per row. */
  readonly lengths: number[];
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
}

export function padSequences(
  sequences: readonly (readonly number[])[],
  padTokenId: number,
  vocabSize: number,
): EncoderFeeds {
  const batch = sequences.length;
  const lengths = sequences.map((ids) => ids.length);
  const sequence = Math.max(0, ...lengths);
  const inputIds = new BigInt64Array(batch * sequence).fill(BigInt(padTokenId));
  const attentionMask = new BigInt64Array(batch * sequence);
  sequences.forEach((ids, row) => {
    if (ids.length === 0) throw new RangeError(`sequence ${row} is empty`);
    const offset = row * sequence;
    for (let t = 0; t < ids.length; t++) {
      const id = ids[t];
      // An out-of-range id would surface as an opaque Gather error from ORT; name it here instead.
      if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
        throw new RangeError(
          `sequence ${row} has token id ${id} outside the vocabulary [0, ${vocabSize})`,
        );
      }
      inputIds[offset + t] = BigInt(id);
      attentionMask[offset + t] = 1n;
    }
  });
  return { batch, sequence, lengths, inputIds, attentionMask };
}
