// Checks token-id sequences against the model and turns a batch of them into the int64 tensors
// an encoder graph takes. Rows are right-padded, which is what makes `lengths` a faithful
// attention mask for pooling.
import { Tensor } from 'onnxruntime-node';
import type { EncoderRejection } from './encoder.protocol';

export interface EncoderFeeds {
  readonly batch: number;
  readonly sequence: number;
  /** Real (unpadded) token count per row. */
  readonly lengths: number[];
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
}

/** Why the model cannot take `ids`, or null when it can. Never truncates. */
export function rejectionOf(
  ids: readonly number[],
  limits: { readonly maxTokens: number; readonly vocabSize: number },
): EncoderRejection | null {
  if (ids.length === 0) return { reason: 'empty' };
  // An out-of-range id would surface as an opaque Gather error from ORT; name it here instead.
  const bad = ids.find((id) => !Number.isInteger(id) || id < 0 || id >= limits.vocabSize);
  if (bad !== undefined) return { reason: 'out_of_vocabulary', tokenId: bad };
  if (ids.length > limits.maxTokens) return { reason: 'too_long' };
  return null;
}

/** Pads sequences already checked with `rejectionOf`. */
export function padSequences(
  sequences: readonly (readonly number[])[],
  padTokenId: number,
): EncoderFeeds {
  const batch = sequences.length;
  const lengths = sequences.map((ids) => ids.length);
  const sequence = Math.max(0, ...lengths);
  const inputIds = new BigInt64Array(batch * sequence).fill(BigInt(padTokenId));
  const attentionMask = new BigInt64Array(batch * sequence);
  sequences.forEach((ids, row) => {
    const offset = row * sequence;
    for (let t = 0; t < ids.length; t++) {
      inputIds[offset + t] = BigInt(ids[t]);
      attentionMask[offset + t] = 1n;
    }
  });
  return { batch, sequence, lengths, inputIds, attentionMask };
}

/**
 * The graph's feeds for a padded batch: `input_ids`, and `attention_mask` / `token_type_ids`
 * where the graph takes them (single-segment inputs: every type id 0). Every head (pooled
 * embeddings, classification logits) feeds an encoder the same way.
 */
export function encoderFeeds(
  inputNames: readonly string[],
  padded: EncoderFeeds,
): Record<string, Tensor> {
  const dims = [padded.batch, padded.sequence];
  const feeds: Record<string, Tensor> = { input_ids: new Tensor('int64', padded.inputIds, dims) };
  if (inputNames.includes('attention_mask')) {
    feeds.attention_mask = new Tensor('int64', padded.attentionMask, dims);
  }
  if (inputNames.includes('token_type_ids')) {
    feeds.token_type_ids = new Tensor('int64', new BigInt64Array(padded.inputIds.length), dims);
  }
  return feeds;
}
