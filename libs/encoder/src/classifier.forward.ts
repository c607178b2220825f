// The classify job, all in the worker: tokenize (bounded) → window → group by length → pad →
// run → read the logits. Every window of every text in the micro-batch is one row of the same
// length-grouped runs, so a long text costs its windows, not a batch of its own.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import type { InferenceSession } from 'onnxruntime-node';
import type { ClassifierRejection, ClassifyJob, ClassifyJobResult } from './classifier.protocol';
import { encoderFeeds, padSequences } from './encoder.feeds';
import { runInLengthGroups, type RowMatrix } from './length.groups';
import { encodeBounded } from './tokenizer.bounds';
import { maxWindowedTokens, tokenWindows, type SpecialTokens } from './token.windows';

export async function runClassifyJob(
  session: InferenceSession,
  job: ClassifyJob,
  tokenizer: PreTrainedTokenizer,
  specials: SpecialTokens,
): Promise<ClassifyJobResult> {
  const limit = maxWindowedTokens(job.windowing, specials);
  const rows: (readonly number[])[] = [];
  const windows: number[] = [];
  const tokens: number[] = [];
  const rejections: (ClassifierRejection | null)[] = [];
  for (const text of job.texts) {
    const encoded = encodeBounded(tokenizer, text, limit);
    const split = encoded.complete ? tokenWindows(encoded.ids, job.windowing, specials) : null;
    tokens.push(encoded.ids.length);
    if (text.length === 0) {
      rejections.push({ reason: 'empty' });
      windows.push(0);
    } else if (!split) {
      rejections.push({ reason: 'too_long', truncated: !encoded.complete });
      windows.push(0);
    } else {
      rejections.push(null);
      windows.push(split.length);
      rows.push(...split);
    }
  }
  const { values, width } = await runInLengthGroups(
    rows,
    rows.map((_, row) => row),
    (group) => runLogits(session, job, group),
  );
  return { logits: values, labels: width, windows, tokens, rejections };
}

/** One ONNX Runtime run over windows padded to the longest: `[rows, labels]` logits. */
async function runLogits(
  session: InferenceSession,
  job: ClassifyJob,
  sequences: readonly (readonly number[])[],
): Promise<RowMatrix> {
  const padded = padSequences(sequences, job.padTokenId);
  const feeds = encoderFeeds(session.inputNames, padded);
  const output = (await session.run(feeds, [job.outputName]))[job.outputName];
  if (output.type !== 'float32' || output.dims.length !== 2) {
    throw new TypeError(
      `output ${job.outputName} is ${output.type} [${output.dims.join(', ')}]; ` +
        `a sequence classifier gives float32 [batch, labels]`,
    );
  }
  return { values: output.data as Float32Array, width: output.dims[1] };
}
