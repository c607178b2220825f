// `npm run bench:embeddings`: the embeddings service (HTTP → gateway → gRPC → embeddings
// service → ONNX Runtime, as deployed) against a direct transformers.js feature-extraction loop
// in this process, on the same real-sized generated encoder, in the same run, with the bare
// two-hop relay at c=1. The run itself (drivers, sampling, ceiling probe, report, result file)
// is the shared encoder benchmark (bench/lib/encoder-stack.bench.ts); this folder is what is
// particular to embeddings.
import { join, resolve } from 'node:path';
import { runAsProgram, runEncoderBench } from '../lib/encoder-stack.bench';
import { loadDirectPipeline, type DirectPipeline } from './direct-pipeline.reference';
import { parseBenchArguments, type EmbeddingModelSettings } from './embeddings.arguments';
import { compareWithReference, type CorrectnessResult } from './embeddings.correctness';
import { directRunner, httpRunner } from './embeddings.sides';
import { embeddingsTargets } from './embeddings.targets';

const REPO = resolve(__dirname, '..', '..', '..');

runAsProgram('bench:embeddings', () =>
  runEncoderBench<DirectPipeline, CorrectnessResult, EmbeddingModelSettings>({
    benchmark: 'embeddings',
    capability: 'embeddings',
    modelId: 'bench-minilm',
    modelDir: join(REPO, '.cache', 'models', 'bench-minilm'),
    fixturesCommand: 'bench-model',
    writtenBy: 'bench/embeddings/embeddings.bench.ts',
    relayHandler: join(__dirname, 'embeddings.relay.js'),
    arguments: parseBenchArguments(process.argv.slice(2)),
    modelOptions: (settings) => ({ ...settings }),
    loadDirect: loadDirectPipeline,
    directRunner,
    httpRunner,
    correctness: compareWithReference,
    targets: embeddingsTargets,
    describe: {
      reference:
        "transformers.js pipeline('feature-extraction'), pooling mean, normalize, one call per request, in the bench process",
      relay:
        'bare node:http process → bare grpc-js (Embeddings contract) → process calling the same pipeline once per request',
      client: 'node:http keep-alive, POST /v1/embeddings, one input string, encoding_format base64',
    },
  }),
);
