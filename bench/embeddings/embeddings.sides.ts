// The three sides of the embeddings benchmark as load-driver runners over the same corpus:
// request `index` sends sentence `index mod corpus size` to the reference pipeline in-process,
// or over HTTP to the stack or the bare relay (checking the token count each reply reports).
import type { SideRunner } from '../lib/interleaved.rounds';
import type { DirectPipeline } from './direct-pipeline.reference';
import { EmbeddingsHttpClient } from './embeddings.http-client';
import type { BenchSentence } from '../lib/sentence.corpus';

export function directRunner(direct: DirectPipeline, corpus: readonly BenchSentence[]): SideRunner {
  return {
    send: async (index) => {
      await direct.embed(corpus[index % corpus.length].text);
    },
  };
}

export function httpRunner(
  server: { baseURL: string; apiKey: string; model: string },
  corpus: readonly BenchSentence[],
  concurrency: number,
): SideRunner {
  const client = new EmbeddingsHttpClient(server.baseURL, server.apiKey, server.model, concurrency);
  let mismatches = 0;
  return {
    send: async (index, recorder) => {
      const sentence = corpus[index % corpus.length];
      const reply = await client.embed(sentence.text, recorder);
      if (reply.promptTokens !== sentence.tokens || reply.embedding.length === 0) mismatches++;
    },
    mismatches: () => mismatches,
    close: () => client.close(),
  };
}
