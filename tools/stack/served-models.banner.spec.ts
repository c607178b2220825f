import * as path from 'node:path';
import { loadModelsFile, parseModelsFile, type ModelsFile } from '@tessera/models';
import { repoRoot } from '@tessera/testing';
import { isRandomWeightFixture, renderServedModelsBanner } from './served-models.banner';

const config = path.resolve('/repo/config');
const fixturesDir = path.resolve('/repo/test/fixtures/models');

const file = (name: string, lines: readonly string[]): ModelsFile =>
  parseModelsFile(['models:', ...lines].join('\n'), path.join(config, name));

describe('the start-up banner', () => {
  it('names each model, its capability, whether its weights are real, and its file', () => {
    const defaults = file('models.yaml', [
      '  - { id: all-minilm-l6-v2, capability: embeddings, source: "hf:Xenova/all-MiniLM-L6-v2" }',
    ]);
    const starter = file('models.starter.yaml', [
      '  - { id: smollm2, capability: chat, source: /cache/smollm2 }',
      '  - { id: tiny-smolvlm, capability: chat, source: ../test/fixtures/models/tiny-smolvlm }',
      '  - { id: tiny-moderation, capability: moderation, source: ../test/fixtures/models/tiny-toxic-bert }',
      '  - { id: tiny-piper, capability: speech, source: ../test/fixtures/models, file: tiny-piper/tiny-piper.onnx }',
    ]);
    const reason = 'the Hugging Face Hub at https://huggingface.co is not reachable (ECONNREFUSED)';
    const starterPart = (capability: 'chat' | 'moderation' | 'speech') => ({
      capability,
      file: starter,
      models: starter.models.filter((spec) => spec.capability === capability),
      origin: 'starter' as const,
      fallbackReason: reason,
    });

    const banner = renderServedModelsBanner(
      [
        starterPart('chat'),
        { capability: 'embeddings', file: defaults, models: defaults.models, origin: 'cached' },
        starterPart('moderation'),
        starterPart('speech'),
      ],
      { modelsFile: '/cache/composed/models-1.yaml', fixturesDir, cwd: path.resolve('/repo') },
    );

    expect(banner.split('\n')).toEqual([
      'models file: /cache/composed/models-1.yaml',
      '  CAPABILITY  MODEL             WEIGHTS                       FROM',
      '  chat        smollm2           real                          config/models.starter.yaml (starter)',
      '  chat        tiny-smolvlm      random, for API testing only  config/models.starter.yaml (starter)',
      '  embeddings  all-minilm-l6-v2  real                          config/models.yaml (cached)',
      '  moderation  tiny-moderation   random, for API testing only  config/models.starter.yaml (starter)',
      '  speech      tiny-piper        random, for API testing only  config/models.starter.yaml (starter)',
      `chat, moderation, speech: served by the starter models, as the default models file's are not cached and ${reason}`,
    ]);
  });
});

describe('config/models.starter.yaml', () => {
  it('says `random weights` in owned_by of exactly the models the banner calls random', () => {
    const starter = loadModelsFile(path.join(repoRoot(), 'config', 'models.starter.yaml'));
    const fixtures = path.join(repoRoot(), 'test', 'fixtures', 'models');
    const random = starter.models.filter((spec) => isRandomWeightFixture(spec, fixtures));

    expect(random.map((spec) => spec.id)).toEqual(['tiny-smolvlm', 'tiny-moderation']);
    for (const spec of starter.models) {
      expect([spec.id, spec.owned_by]).toEqual([
        spec.id,
        random.includes(spec) ? 'tessera (random weights, for API testing)' : 'tessera',
      ]);
    }
  });
});
