// The phonemiser as an engine of @tessera/runtime's worker pool: espeak-ng's WebAssembly module
// loaded once per worker, one text per job. A worker because a 4096-character input takes tens
// of milliseconds of synchronous work, which must not hold a service's event loop.
import type { EngineFactory } from '@tessera/runtime';
import { EspeakModule } from './espeak.module';
import { piperSentences } from './piper.sentences';

export interface EspeakEngineTypes {
  readonly options: Record<string, never>;
  readonly info: Record<string, never>;
  readonly request: { readonly text: string; readonly voice: string };
  readonly result: string[][];
  readonly chunk: never;
}

export const createEngine: EngineFactory<EspeakEngineTypes> = async ({ modelDir }) => {
  const espeak = await EspeakModule.load(modelDir);
  return {
    info: {},
    run: async ({ text, voice }) => piperSentences(espeak.clauses(text, voice)),
  };
};
