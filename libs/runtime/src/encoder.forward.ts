// The encoder forward pass as one worker job: group by length → pad → run → pool → normalise. Running all of
// it in the worker keeps the `[batch, seq, hidden]` activations (megabytes for real models)
// off the main thread, which only receives `[batch, hidden]`.
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { padSequences } from './encoder.feeds';
import { groupByLength } from './length.groups';
import type { EmbedJob, EmbedJobResult } from './ort-worker.protocol';
import { l2Normalize, poolHiddenStates } from './pooling';

export async function runEmbedJob(
  session: InferenceSession,
  job: EmbedJob,
): Promise<EmbedJobResult> {
  const groups = groupByLength(job.sequences.map((ids) => ids.length));
  let result: EmbedJobResult | null = null;
  for (const rows of groups) {
    const part = await runPaddedBatch(
      session,
      job,
      rows.map((row) => job.sequences[row]),
    );
    result ??= {
      embeddings: new Float32Array(job.sequences.length * part.dimensions),
      dimensions: part.dimensions,
    };
    rows.forEach((row, i) =>
      result!.embeddings.set(
        part.embeddings.subarray(i * part.dimensions, (i + 1) * part.dimensions),
        row * part.dimensions,
      ),
    );
  }
  return result ?? { embeddings: new Float32Array(0), dimensions: 0 };
}

/** One ONNX Runtime run over rows padded to the longest of them. */
async function runPaddedBatch(
  session: InferenceSession,
  job: EmbedJob,
  sequences: EmbedJob['sequences'],
): Promise<EmbedJobResult> {
  const padded = padSequences(sequences, job.padTokenId, job.vocabSize);
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
