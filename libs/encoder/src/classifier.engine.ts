// The classifier as an engine of @tessera/runtime's worker pool: each worker opens the graph and
// the tokenizer once (the same loading as the embedding engine's) and serves classify jobs.
import type { EngineFactory } from '@tessera/runtime';
import { loadLocalTokenizer } from '@tessera/text';
import { runClassifyJob } from './classifier.forward';
import type { ClassifierEngineTypes } from './classifier.protocol';
import { specialTokensOf } from './token.windows';

export const createEngine: EngineFactory<ClassifierEngineTypes> = async (init) => {
  const session = await init.sessions.create(init.options.onnxFile);
  const tokenizer = await loadLocalTokenizer(init.modelDir);
  const specials = specialTokensOf((text, add_special_tokens) =>
    tokenizer.encode(text, { add_special_tokens }),
  );
  return {
    info: {
      inputNames: [...session.inputNames],
      outputNames: [...session.outputNames],
      padTokenId: tokenizer.pad_token_id ?? null,
      specials,
    },
    async run(job, context) {
      const result = await runClassifyJob(session, job, tokenizer, specials);
      context.transfer(result.logits.buffer as ArrayBuffer);
      return result;
    },
  };
};
