// The three sides of the moderation benchmark as load-driver runners over the same corpus:
// request `index` sends sentence `index mod corpus size` to the reference pipeline in-process,
// or as POST /v1/moderations with one input string over the benchmarks' traced keep-alive HTTP
// client to the stack or the bare relay (checking each reply holds one result with scores).
import type { SideRunner } from '../lib/interleaved.rounds';
import type { BenchSentence } from '../lib/sentence.corpus';
import { TracedHttpClient } from '../lib/traced-http.client';
import type { DirectClassifier } from './direct-classifier.reference';

export function directRunner(
  direct: DirectClassifier,
  corpus: readonly BenchSentence[],
): SideRunner {
  return {
    send: async (index) => {
      await direct.classify(corpus[index % corpus.length].text);
    },
  };
}

/** Whether a 200 body holds exactly one result with category scores. */
function oneScoredResult(body: string): boolean {
  const reply = JSON.parse(body) as { results?: Array<{ category_scores?: object }> };
  return (
    reply.results?.length === 1 && Object.keys(reply.results[0].category_scores ?? {}).length > 0
  );
}

export function httpRunner(
  server: { baseURL: string; apiKey: string; model: string },
  corpus: readonly BenchSentence[],
  concurrency: number,
): SideRunner {
  const headers = { authorization: `Bearer ${server.apiKey}` };
  const http = new TracedHttpClient(server.baseURL, headers, concurrency);
  let mismatches = 0;
  return {
    send: async (index, recorder) => {
      const input = corpus[index % corpus.length].text;
      const { status, body } = await http.post(
        'moderations',
        { model: server.model, input },
        recorder,
      );
      if (status !== 200) throw new Error(`HTTP ${status}: ${body.slice(0, 300)}`);
      if (!oneScoredResult(body)) mismatches++;
    },
    mismatches: () => mismatches,
    close: () => http.close(),
  };
}
