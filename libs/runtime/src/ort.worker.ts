// Worker-thread entry: owns one InferenceSession (and optionally a tokenizer) and serves jobs
// from OrtWorkerPool one at a time. Everything here may block: that is why it is a thread.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { runEmbedJob } from './encoder.forward';
import {
  serializeError,
  type OrtWorkerInit,
  type OrtWorkerJobMessage,
  type OrtWorkerJobs,
  type OrtWorkerReply,
} from './ort-worker.protocol';
import {
  transferableBuffers,
  type NumericTensorType,
  type TensorArray,
  type TensorMap,
} from './tensor.data';
import { encodeAll, encodeText, loadLocalTokenizer } from './tokenizer.loader';

// ORT's constructor overloads are keyed on literal element types; at runtime it takes any
// (type, typed array) pair, which TensorData already keeps consistent.
const NumericTensor = Tensor as unknown as new (
  type: NumericTensorType,
  data: TensorArray,
  dims: readonly number[],
) => Tensor;

async function runFeeds(
  session: InferenceSession,
  { feeds, fetches }: OrtWorkerJobs['run']['request'],
): Promise<TensorMap> {
  const ortFeeds: Record<string, Tensor> = {};
  for (const [name, t] of Object.entries(feeds)) {
    ortFeeds[name] = new NumericTensor(t.type, t.data, t.dims);
  }
  const outputs = fetches ? await session.run(ortFeeds, [...fetches]) : await session.run(ortFeeds);
  const result: TensorMap = {};
  for (const [name, t] of Object.entries(outputs)) {
    if (t.type === 'string') throw new TypeError(`output ${name} is a string tensor`);
    result[name] = { type: t.type, dims: [...t.dims], data: t.data as TensorArray };
  }
  return result;
}

interface HandledJob {
  readonly result: unknown;
  /** Buffers moved to the main thread instead of copied. */
  readonly transfer: ArrayBuffer[];
}

async function handleJob(
  message: OrtWorkerJobMessage,
  session: InferenceSession,
  tokenizer: PreTrainedTokenizer | undefined,
): Promise<HandledJob> {
  switch (message.kind) {
    case 'run': {
      const result = await runFeeds(session, message.payload);
      return { result, transfer: transferableBuffers(Object.values(result)) };
    }
    case 'embed': {
      const tokenize = tokenizer && ((text: string) => encodeText(tokenizer, text));
      const result = await runEmbedJob(session, message.payload, tokenize);
      return { result, transfer: [result.embeddings.buffer as ArrayBuffer] };
    }
    case 'tokenize':
      if (!tokenizer) throw new Error('this worker was started without a tokenizer');
      return { result: encodeAll(tokenizer, message.payload.texts), transfer: [] };
  }
}

/** Runs one job and always answers it: a job's failure must never take the worker down. */
async function serve(
  port: MessagePort,
  message: OrtWorkerJobMessage,
  session: InferenceSession,
  tokenizer: PreTrainedTokenizer | undefined,
): Promise<void> {
  try {
    const { result, transfer } = await handleJob(message, session, tokenizer);
    const reply: OrtWorkerReply = { type: 'result', id: message.id, result };
    try {
      port.postMessage(reply, transfer);
    } catch {
      // A buffer the runtime will not let go of (e.g. externally owned) is copied instead.
      port.postMessage(reply);
    }
  } catch (error) {
    const reply: OrtWorkerReply = { type: 'error', id: message.id, error: serializeError(error) };
    port.postMessage(reply);
  }
}

async function main(port: MessagePort): Promise<void> {
  const init = workerData as OrtWorkerInit;
  const session = await InferenceSession.create(init.modelPath, {
    intraOpNumThreads: init.intraOpNumThreads,
    // Parallelism comes from the pool's threads; inter-op threads would only oversubscribe.
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: [...init.executionProviders],
  });
  let tokenizer: PreTrainedTokenizer | undefined;
  if (init.tokenizerDir !== undefined) tokenizer = await loadLocalTokenizer(init.tokenizerDir);

  port.on('message', (message: OrtWorkerJobMessage) => {
    void serve(port, message, session, tokenizer);
  });

  const ready: OrtWorkerReply = {
    type: 'ready',
    info: {
      inputNames: [...session.inputNames],
      outputNames: [...session.outputNames],
      ...(tokenizer && { padTokenId: tokenizer.pad_token_id ?? null }),
    },
  };
  port.postMessage(ready);
}

if (parentPort) {
  const port = parentPort;
  main(port).catch((error: unknown) => {
    // Rethrown outside the promise chain so it becomes the worker's 'error' event: the pool
    // reports it as the reason the worker could not start.
    process.nextTick(() => {
      throw error;
    });
  });
}
