// The encoder job, all in the worker: tokenize → check → group by length → pad → run → pool →
// normalise. One job per batch means one thread round trip per batch, and requests wait in the
// micro-batcher (where they can join the next batch) rather than as tokenize jobs behind a
// running batch. Running it in the worker also keeps the `[batch, seq, hidden]` activations
// (megabytes for real models) off the main thread, which only receives `[batch, hidden]`.
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { padSequences, rejectionOf } from './encoder.feeds';
import { groupByLength } from './length.groups';
import type { EmbedJob, EmbedJobResult, EncoderRejection } from './ort-worker.protocol';
import { l2Normalize, poolHiddenStates } from './pooling';

/** Text → token ids with the model's special tokens. */
export type Tokenize = (text: string) => number[];

export async function runEmbedJob(
  session: InferenceSession,
  job: EmbedJob,
  tokenize?: Tokenize,
): Promise<EmbedJobResult> {
  const sequences = job.inputs.map((input) => {
    if (typeof input !== 'string') return input;
    if (!tokenize) throw new Error('this worker was started without a tokenizer');
    return tokenize(input);
  });
  const rejections = rejectRequests(
    sequences.map((ids) => rejectionOf(ids, job)),
    job.requests,
  );
  const runnable = sequences.flatMap((_, row) => (rejections[row] ? [] : [row]));

  let embeddings = new Float32Array(0);
  let dimensions = 0;
  for (const group of groupByLength(runnable.map((row) => sequences[row].length))) {
    const rows = group.map((i) => runnable[i]);
    const part = await runPaddedBatch(
      session,
      job,
      rows.map((row) => sequences[row]),
    );
    if (dimensions === 0) {
      dimensions = part.dimensions;
      embeddings = new Float32Array(sequences.length * dimensions);
    }
    rows.forEach((row, i) =>
      embeddings.set(
        part.embeddings.subarray(i * dimensions, (i + 1) * dimensions),
        row * dimensions,
      ),
    );
  }
  return { embeddings, dimensions, tokens: sequences.map((ids) => ids.length), rejections };
}

/** A request with one rejected input is answered with an error: none of its inputs run. */
function rejectRequests(
  rejections: (EncoderRejection | null)[],
  requests: readonly number[] | undefined,
): (EncoderRejection | null)[] {
  if (!requests) return rejections;
  const rejected = new Set(requests.filter((_, row) => rejections[row]));
  return rejections.map(
    (rejection, row) =>
      rejection ?? (rejected.has(requests[row]) ? { reason: 'request_rejected' } : null),
  );
}

/** One ONNX Runtime run over rows padded to the longest of them. */
async function runPaddedBatch(
  session: InferenceSession,
  job: EmbedJob,
  sequences: readonly (readonly number[])[],
): Promise<{ embeddings: Float32Array; dimensions: number }> {
  const padded = padSequences(sequences, job.padTokenId);
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
    // Already pooled by the graph (e.g. a `sentence_embedding` output); normalised in place,
    // since runEmbedJob copies the rows into the job's result anyway.
    dimensions = output.dims[1];
    embeddings = values;
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
