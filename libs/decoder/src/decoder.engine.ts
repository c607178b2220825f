// The decoder as an engine of @tessera/runtime's worker pool: each worker opens the graph and
// the tokenizer (for detokenizing and logprob strings) once, and runs every job it is given
// through one continuous-batching scheduler. The pool's `concurrency` (max_sequences) lets many
// jobs run in the worker at once; the scheduler decides which of them decode together.
import { join } from 'node:path';
import type { EngineFactory, SessionFactory } from '@tessera/runtime';
import { ContinuousBatchScheduler } from './continuous-batch.scheduler';
import { readDecoderConfig } from './decoder.config';
import type { DecoderGraph } from './decoder.graph';
import type { DecoderEngineOptions, DecoderEngineTypes } from './decoder.protocol';
import { DecoderSession } from './decoder.session';
import { GrammarWorkerPool } from './grammar/grammar-worker.pool';
import { Utf8Vocabulary } from './grammar/utf8.guard';
import { VisionSessions } from './vision/vision.session';
import { loadChatTokenizer } from '@tessera/text';

export const createEngine: EngineFactory<DecoderEngineTypes> = async (init) => {
  const { options, modelDir } = init;
  const config = await readDecoderConfig(modelDir, options.onnxFile);
  const create = (path: string) => init.sessions.create(path);
  const vision = options.vision
    ? await VisionSessions.open(modelDir, options.vision, create)
    : undefined;
  const session = await DecoderSession.open(
    join(modelDir, config.onnxFile),
    config,
    create,
    vision,
  );
  const tokenizer = await loadChatTokenizer(modelDir);
  const { graph } = session;
  const vocabSize = graph.vocabSize ?? config.vocabSize;
  // The grammar workers (XGrammar and the vocabulary's token masks, ~0.4 s for a 49k
  // vocabulary) start on the first constrained job; models never asked for JSON pay nothing.
  let grammar: GrammarWorkerPool | undefined;
  const grammarEngine = async () =>
    (grammar ??= new GrammarWorkerPool(
      { modelDir, vocabSize, eosTokenIds: config.eosTokenIds },
      {
        utf8: Utf8Vocabulary.fromTokens(tokenizer.vocabSize, (id) => tokenizer.tokenInfo(id).bytes),
      },
    ));
  const scheduler = new ContinuousBatchScheduler(
    session,
    tokenizer,
    { ...options, prefillChunkTokens: prefillChunkTokens(options, graph, init.sessions) },
    config.eosTokenIds,
    vocabSize,
    grammarEngine,
    // Each step tells the pool this worker is moving (its stall watchdog, readiness).
    init.progress,
  );
  return {
    info: {
      layers: graph.layers,
      kvHeads: graph.kvHeads,
      headSize: graph.headSize,
      kvType: graph.kvType,
      graphVocabSize: graph.vocabSize,
    },
    run: (job, context) => scheduler.run(job, context),
  };
};

/**
 * ONNX Runtime's WebGPU GroupQueryAttention (onnxruntime-node 1.30) computes a run of 32 or more
 * new positions wrongly (logits off by ~5 on tiny-llama's export; 31 are exact, whatever the
 * past), so on webgpu such a graph is prefilled in chunks below that; the CPU kernel has no limit.
 */
export const WEBGPU_GQA_MAX_PREFILL_CHUNK = 16;

function prefillChunkTokens(
  options: DecoderEngineOptions,
  graph: DecoderGraph,
  sessions: SessionFactory,
): number {
  return graph.sharedCache && sessions.providers.includes('webgpu')
    ? Math.min(options.prefillChunkTokens, WEBGPU_GQA_MAX_PREFILL_CHUNK)
    : options.prefillChunkTokens;
}
