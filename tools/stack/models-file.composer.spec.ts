import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadModelsFile, modelsFor, ModelsFileError, type ModelsFile } from '@tessera/models';
import { CAPABILITIES } from '@tessera/contracts';
import { repoRoot } from '@tessera/testing';
import { composeModelsFile, writeComposedModelsFile } from './models-file.composer';
import type { ServedCapability } from './served-models.resolver';

describe('the composed models file', () => {
  let work: string;

  const file = (name: string, lines: readonly string[]): ModelsFile => {
    const where = path.join(work, name);
    mkdirSync(path.dirname(where), { recursive: true });
    writeFileSync(where, [...lines, ''].join('\n'));
    return loadModelsFile(where);
  };
  const from = (models: ModelsFile, capability: ServedCapability['capability']) =>
    ({
      capability,
      file: models,
      models: modelsFor(models, capability),
      origin: models.path.endsWith('starter.yaml') ? 'starter' : 'cached',
    }) satisfies ServedCapability;

  beforeEach(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'tessera-composed-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('takes each capability from its file, local paths made absolute, every field kept', async () => {
    const defaults = file('config/models.yaml', [
      'models:',
      '  - id: minilm',
      '    capability: embeddings',
      '    source: hf:Xenova/all-MiniLM-L6-v2@abc',
      '    dtype: fp32',
      '    aliases: [text-embedding-3-small]',
      '    created: 2024-05-01',
      '    options: { max_batch_tokens: 8192 }',
      '  - id: toxic',
      '    capability: moderation',
      '    source: hf:Xenova/toxic-bert',
    ]);
    const starter = file('config/models.starter.yaml', [
      'models:',
      '  - id: tiny-moderation',
      '    capability: moderation',
      '    source: ../fixtures/tiny-toxic-bert',
      '    owned_by: tessera (random weights, for API testing)',
      '    options:',
      '      categories: { violence: { labels: [threat] } }',
      '      classifiers:',
      '        - source: ../fixtures/tiny-safety-cls',
      '          file: onnx/model.onnx',
      '          categories: { sexual: { labels: [sexual] } }',
      '  - id: starter-minilm',
      '    capability: embeddings',
      '    source: ../exports/minilm',
    ]);

    const text = composeModelsFile([from(defaults, 'embeddings'), from(starter, 'moderation')]);
    const composed = await writeComposedModelsFile(text, path.join(work, 'cache', 'composed'));
    const models = loadModelsFile(composed).models;

    expect(text).toContain(`#   embeddings: ${defaults.path}\n#   moderation: ${starter.path}\n`);
    expect(models.map((spec) => spec.id)).toEqual(['minilm', 'tiny-moderation']);
    const [minilm, moderation] = models;
    expect(minilm).toEqual(defaults.models[0]);
    expect(moderation!.source).toEqual({
      kind: 'local',
      path: path.join(work, 'fixtures', 'tiny-toxic-bert'),
      raw: path.join(work, 'fixtures', 'tiny-toxic-bert'),
    });
    expect(moderation!.owned_by).toBe('tessera (random weights, for API testing)');
    expect(moderation!.options.classifiers).toEqual([
      {
        source: path.join(work, 'fixtures', 'tiny-safety-cls'),
        file: 'onnx/model.onnx',
        categories: { sexual: { labels: ['sexual'] } },
      },
    ]);
  });

  it('is written once under its content hash, with nothing half-written left beside it', async () => {
    const defaults = file('models.yaml', [
      'models:',
      '  - id: minilm',
      '    capability: embeddings',
      '    source: hf:Xenova/all-MiniLM-L6-v2',
    ]);
    const text = composeModelsFile([from(defaults, 'embeddings')]);
    const directory = path.join(work, 'composed');

    const first = await writeComposedModelsFile(text, directory);
    const second = await writeComposedModelsFile(text, directory);

    expect(second).toBe(first);
    expect(readFileSync(first, 'utf8')).toBe(text);
    expect(readdirSync(directory)).toEqual([path.basename(first)]);
    expect(path.basename(first)).toMatch(/^models-[0-9a-f]{16}\.yaml$/);
  });

  it('refuses a name that two files give to different models', async () => {
    const defaults = file('models.yaml', [
      'models:',
      '  - id: qwen',
      '    capability: chat',
      '    source: hf:onnx-community/Qwen2.5-0.5B-Instruct',
      '    aliases: [gpt-4o-mini]',
    ]);
    const starter = file('models.starter.yaml', [
      'models:',
      '  - id: smollm2',
      '    capability: embeddings',
      '    source: ./smollm2',
      '    aliases: [gpt-4o-mini]',
    ]);
    const text = composeModelsFile([from(defaults, 'chat'), from(starter, 'embeddings')]);

    await expect(writeComposedModelsFile(text, path.join(work, 'composed'))).rejects.toThrow(
      ModelsFileError,
    );
    await expect(writeComposedModelsFile(text, path.join(work, 'composed'))).rejects.toThrow(
      /gpt-4o-mini/,
    );
  });
});

describe('config/models.yaml with config/models.starter.yaml', () => {
  const defaults = loadModelsFile(path.join(repoRoot(), 'config', 'models.yaml'));
  const starter = loadModelsFile(path.join(repoRoot(), 'config', 'models.starter.yaml'));
  const capabilities = CAPABILITIES.filter((capability) => modelsFor(defaults, capability).length);

  it('compose without a clash, whichever capabilities fall back to the starter', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'tessera-composed-'));
    try {
      for (let fallback = 0; fallback < 2 ** capabilities.length; fallback++) {
        const served = capabilities.map((capability, bit) => {
          const file = (fallback >> bit) & 1 ? starter : defaults;
          return {
            capability,
            file,
            models: modelsFor(file, capability),
            origin: 'cached' as const,
          };
        });
        expect(served.every(({ models }) => models.length > 0)).toBe(true);
        const composed = await writeComposedModelsFile(composeModelsFile(served), work);
        expect(loadModelsFile(composed).models.map((spec) => spec.id)).toEqual(
          served.flatMap(({ models }) => models.map((spec) => spec.id)),
        );
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
