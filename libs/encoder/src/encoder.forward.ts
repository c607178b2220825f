// The encoder job, all in the worker: tokenize → check → group by length → pad → run → pool →
// normalise. One job per batch means one thread round trip per batch, and requests wait in the
// micro-batcher (where they can join the next batch) rather than as tokenize jobs behind a
// running batch. Running it in the worker also keeps the `[batch, seq, hidden]` activations
// (megabytes for real models) off the main thread, which only receives `[batch, hidden]`.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import type { InferenceSession } from 'onnxruntime-node';
import { encoderFeeds, padSequences, rejectionOf } from './encoder.feeds';
import type { EmbedJob, EmbedJobResult, EncoderRejection } from './encoder.protocol';
import { runInLengthGroups, type RowMatrix } from './length.groups';
import { l2Normalize, poolHiddenStates } from './pooling';
import { encodeBounded } from './tokenizer.bounds';

export async function runEmbedJob(
  session: InferenceSession,
  job: EmbedJob,
  tokenizer: PreTrainedTokenizer,
): Promise<EmbedJobResult> {
  const { sequences, rejections } = checkInputs(job, tokenizer);
  const runnable = sequences.flatMap((_, row) => (rejections[row] ? [] : [row]));
  const { values: embeddings, width: dimensions } = await runInLengthGroups(
    sequences,
    runnable,
    (group) => runPaddedBatch(session, job, group),
  );
  return { embeddings, dimensions, tokens: sequences.map((ids) => ids.length), rejections };
}

/**
 * Tokenizes and checks every input, request by request. A request with one rejected input is
 * answered with an error, so none of its later inputs is tokenized (bounding the work a request
 * of many long inputs costs) and its other inputs are marked `request_rejected`.
 */
function checkInputs(
  job: EmbedJob,
  tokenizer: PreTrainedTokenizer,
): { sequences: (readonly number[])[]; rejections: (EncoderRejection | null)[] } {
  const sequences: (readonly number[])[] = [];
  const rejections: (EncoderRejection | null)[] = [];
  const requestTokens = new Map<number, number>();
  const rejected = new Set<number>();
  job.inputs.forEach((input, row) => {
    const request = job.requests?.[row] ?? -1 - row;
    if (rejected.has(request)) {
      sequences.push([]);
      rejections.push(null);
      return;
    }
    const encoded =
      typeof input === 'string'
        ? encodeBounded(tokenizer, input, job.maxTokens)
        : { ids: input, complete: true };
    const total = (requestTokens.get(request) ?? 0) + encoded.ids.length;
    requestTokens.set(request, total);
    let rejection = rejectionOf(encoded.ids, job);
    if (rejection?.reason === 'too_long' && !encoded.complete) {
      rejection = { reason: 'too_long', truncated: true };
    }
    if (!rejection && total > job.maxRequestTokens) {
      rejection = { reason: 'request_too_long', requestTokens: total };
    }
    if (rejection) rejected.add(request);
    sequences.push(encoded.ids);
    rejections.push(rejection);
  });
  return {
    sequences,
    rejections: rejections.map(
      (rejection, row) =>
        rejection ??
        (rejected.has(job.requests?.[row] ?? -1 - row) ? { reason: 'request_rejected' } : null),
    ),
  };
}

/** One ONNX Runtime run over rows padded to the longest of them. */
async function runPaddedBatch(
  session: InferenceSession,
  job: EmbedJob,
  sequences: readonly (readonly number[])[],
): Promise<RowMatrix> {
  const padded = padSequences(sequences, job.padTokenId);
  const feeds = encoderFeeds(session.inputNames, padded);
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
  return { values: embeddings, width: dimensions };
}
