// The encoder as an engine of @tessera/runtime's worker pool: each worker opens the graph and
// the tokenizer once and then serves embed jobs (see encoder.forward.ts).
import type { EngineFactory } from '@tessera/runtime';
import { runEmbedJob } from './encoder.forward';
import type { EncoderEngineTypes } from './encoder.protocol';
import { loadLocalTokenizer } from '@tessera/text';

export const createEngine: EngineFactory<EncoderEngineTypes> = async (init) => {
  const session = await init.sessions.create(init.options.onnxFile);
  const tokenizer = await loadLocalTokenizer(init.modelDir);
  return {
    info: {
      inputNames: [...session.inputNames],
      outputNames: [...session.outputNames],
      padTokenId: tokenizer.pad_token_id ?? null,
    },
    async run(job, context) {
      const result = await runEmbedJob(session, job, tokenizer);
      context.transfer(result.embeddings.buffer as ArrayBuffer);
      return result;
    },
  };
};
