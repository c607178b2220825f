// The encoder forward pass as one worker job: pad → run → pool → L2-normalise. Running all of
// it in the worker keeps the `[batch, seq, hidden]` activations (megabytes for real models)
// off the main thread, which only receives `[batch, hidden]`.
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { padSequences } from './encoder.feeds';
import type { EmbedJob, EmbedJobResult } from './ort-worker.protocol';
import { l2Normalize, poolHiddenStates } from './pooling';

export async function runEmbedJob(
  session: InferenceSession,
  job: EmbedJob,
): Promise<EmbedJobResult> {
  const padded = padSequences(job.sequences, job.padTokenId, job.vocabSize);
  const dims = [padded.batch, padded.sequence];
  const feeds: Record<string, Tensor> = { input_ids: new Tensor('int64', padded.inputIds, dims) };
  if (session.inputNames.includes('attention_mask')) {
    feeds.attention_mask = new Tensor('int64', padded.attentionMask, dims);
  }
  if (session.inputNames.includes('token_type_ids')) {
    feeds.token_type_ids = new Tensor('int64', new BigInt64Array(padded.inputIds.length), dims);
  }

  const output = (await session.run(feeds, [job.outputName]))[job.outputName];
  if (output.type !== 'float32') {
    throw new TypeError(`output ${job.outputName} is ${output.type}; only float32 is supported`);
  }
  const values = output.data as Float32Array;

  let embeddings: Float32Array;
  let dimensions: number;
  if (output.dims.length === 3) {
    dimensions = output.dims[2];
    const shape = { batch: padded.batch, sequence: padded.sequence, hidden: dimensions };
    embeddings = poolHiddenStates(values, shape, padded.lengths, job.pooling);
  } else if (output.dims.length === 2) {
    // Already pooled by the graph (e.g. a `sentence_embedding` output); copy so the result owns
    // a whole, transferable buffer.
    dimensions = output.dims[1];
    embeddings = Float32Array.from(values);
  } else {
    throw new TypeError(
      `output ${job.outputName} has shape [${output.dims.join(', ')}]; expected [batch, seq, hidden] or [batch, hidden]`,
    );
  }
  for (let row = 0; row < padded.batch; row++) {
    l2Normalize(embeddings.subarray(row * dimensions, (row + 1) * dimensions));
  }
  return { embeddings, dimensions };
}
