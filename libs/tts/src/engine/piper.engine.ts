// The Piper voice as an engine of @tessera/runtime's worker pool: each worker opens the voice
// graph once and then serves one voice run per job (see piper.forward.ts).
import type { EngineFactory } from '@tessera/runtime';
import { runSynthesizeJob } from './piper.forward';
import type { PiperEngineTypes } from './piper.protocol';

export const createEngine: EngineFactory<PiperEngineTypes> = async (init) => {
  const session = await init.sessions.create(init.options.onnxFile);
  return {
    info: { inputNames: [...session.inputNames], outputNames: [...session.outputNames] },
    async run(job, context) {
      const result = await runSynthesizeJob(session, job);
      context.transfer(result.pcm.buffer as ArrayBuffer);
      return result;
    },
  };
};
