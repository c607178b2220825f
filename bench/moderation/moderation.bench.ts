// `npm run bench:moderation`: the moderation service (HTTP → gateway → gRPC → moderation
// service → ONNX Runtime, as deployed) against a direct transformers.js text-classification
// loop in this process, on the same generated toxic-bert-shaped classifier (bert-base, 6 labels,
// random weights: `bash tools/fixtures/run.sh bench-classifier`), in the same run, with the bare
// two-hop relay at c=1. The run itself (drivers, sampling, ceiling probe, report, result file)
// is the shared encoder benchmark (bench/lib/encoder-stack.bench.ts), as for embeddings; this
// folder is what is particular to moderation.
import { join, resolve } from 'node:path';
import { runAsProgram, runEncoderBench } from '../lib/encoder-stack.bench';
import { loadDirectClassifier, type DirectClassifier } from './direct-classifier.reference';
import { parseBenchArguments, type ModerationModelSettings } from './moderation.arguments';
import { compareWithReference, type ModerationCorrectness } from './moderation.correctness';
import { benchModelMap } from './moderation.model-map';
import { directRunner, httpRunner } from './moderation.sides';
import { moderationTargets } from './moderation.targets';

const REPO = resolve(__dirname, '..', '..', '..');
const MODEL_DIR = join(REPO, '.cache', 'models', 'bench-toxic-bert');

runAsProgram('bench:moderation', async () => {
  const args = parseBenchArguments(process.argv.slice(2));
  // Read when the run starts: the model directory may only exist once the bench generated it.
  let map: ReturnType<typeof benchModelMap> | undefined;
  const modelMap = () => (map ??= benchModelMap(REPO, MODEL_DIR));
  await runEncoderBench<DirectClassifier, ModerationCorrectness, ModerationModelSettings>({
    benchmark: 'moderation',
    capability: 'moderation',
    modelId: 'bench-toxic-bert',
    modelDir: MODEL_DIR,
    fixturesCommand: 'bench-classifier',
    writtenBy: 'bench/moderation/moderation.bench.ts',
    relayHandler: join(__dirname, 'moderation.relay.js'),
    arguments: args,
    modelOptions: (settings) => ({ ...settings, ...modelMap().options }),
    loadDirect: loadDirectClassifier,
    directRunner,
    httpRunner,
    correctness: (service, direct, corpus) =>
      compareWithReference(service, direct, corpus, modelMap().labels, modelMap().rules),
    targets: moderationTargets,
    describe: {
      reference:
        "transformers.js pipeline('text-classification', top_k null), one call per request, in the bench process",
      relay:
        'bare node:http process → bare grpc-js (Moderation contract) → process calling the same pipeline once per request (labels as categories, unmapped)',
      client: 'node:http keep-alive, POST /v1/moderations, one input string',
    },
  });
});
