// Reference (b): what a naive server does — `@huggingface/transformers` loads the same export
// (onnx/model.onnx for fp32, onnx/model_q4.onnx for q4, transformers.js' own file naming) and
// `generate()` is called once per request, one request at a time: a request that arrives while
// another runs waits for it, as it would behind a single-threaded handler. Greedy, with
// `min_new_tokens` = `max_new_tokens` so end-of-sequence cannot cut a request short. A streamer
// reports each new token as generate() produces it.
import { resolve } from 'node:path';
import type { PreTrainedModel, Tensor as TransformersTensor } from '@huggingface/transformers';

export class TransformersGenerate {
  /** The tail of the queue of requests: each waits for the one before it. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly model: PreTrainedModel,
    private readonly makeIds: (ids: readonly number[]) => TransformersTensor,
    readonly sessionOptions: Record<string, unknown>,
  ) {}

  static async load(
    modelDir: string,
    dtype: 'fp32' | 'q4',
    threads: number,
  ): Promise<TransformersGenerate> {
    const { AutoModelForCausalLM, Tensor, env } = await import('@huggingface/transformers');
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    const sessionOptions = { intraOpNumThreads: threads, interOpNumThreads: 1 };
    const model = await AutoModelForCausalLM.from_pretrained(resolve(modelDir), {
      dtype,
      local_files_only: true,
      session_options: sessionOptions,
    });
    const makeIds = (ids: readonly number[]) =>
      new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
    return new TransformersGenerate(model, makeIds, sessionOptions);
  }

  /** One request, after every request before it has finished; `onToken` per generated token. */
  generate(
    promptIds: readonly number[],
    outputTokens: number,
    onToken: () => void,
  ): Promise<number> {
    const run = this.queue.then(() => this.generateNow(promptIds, outputTokens, onToken));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async generateNow(
    promptIds: readonly number[],
    outputTokens: number,
    onToken: () => void,
  ): Promise<number> {
    const inputIds = this.makeIds(promptIds);
    let generated = -1; // generate() puts the prompt first
    const streamer = {
      put: () => {
        if (generated++ >= 0) onToken();
      },
      end: () => undefined,
    };
    await this.model.generate({
      input_ids: inputIds,
      attention_mask: this.makeIds(promptIds.map(() => 1)),
      max_new_tokens: outputTokens,
      min_new_tokens: outputTokens,
      do_sample: false,
      streamer,
      // generate() only calls put() and end(); its type asks for a whole TextStreamer.
    } as unknown as Parameters<PreTrainedModel['generate']>[0]);
    return generated;
  }

  dispose(): Promise<unknown> {
    return this.model.dispose();
  }
}
