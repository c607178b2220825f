import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { modelCreatedAt } from './model-created.resolver';
import { ModelRegistry } from './model-registry';
import { parseModelsFile } from './models-file.loader';
import { ModelStore } from './model-store';

const FILE = parseModelsFile(
  `
models:
  - id: minilm
    capability: embeddings
    source: hf:Xenova/all-MiniLM-L6-v2
    aliases: [text-embedding-3-small]
  - id: whisper
    capability: transcription
    source: /opt/models/whisper
    aliases: [whisper-1]
    created: 2024-05-01
  - id: amy
    capability: speech
    source: /opt/models/amy
    created: 1700000000
`,
  '/srv/tessera/models.yaml',
);

describe('ModelRegistry', () => {
  const registry = ModelRegistry.fromFile(FILE);

  it('finds a model by id or alias, with its capability', () => {
    expect(registry.find('minilm')).toMatchObject({ id: 'minilm', capability: 'embeddings' });
    expect(registry.find('text-embedding-3-small')).toBe(registry.find('minilm'));
    expect(registry.find('whisper-1')).toMatchObject({
      id: 'whisper',
      capability: 'transcription',
    });
  });

  it('answers undefined for a name no model has', () => {
    expect(registry.find('gpt-4o')).toBeUndefined();
    expect(registry.find('')).toBeUndefined();
  });

  it('lists in models-file order, or only one capability', () => {
    expect(registry.list().map((spec) => spec.id)).toEqual(['minilm', 'whisper', 'amy']);
    const speech = ModelRegistry.fromFile(FILE, 'speech');
    expect(speech.list().map((spec) => spec.id)).toEqual(['amy']);
    // A service's registry does not find another capability's models.
    expect(speech.find('minilm')).toBeUndefined();
  });
});

describe('modelCreatedAt', () => {
  let directory: string;
  let store: ModelStore;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'tessera-created-'));
    store = new ModelStore({ TESSERA_MODEL_CACHE: path.join(directory, 'cache') });
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const spec = (id: string) => ModelRegistry.fromFile(FILE).find(id)!;

  it('takes the models file `created` first (a date is midnight UTC)', async () => {
    expect(await modelCreatedAt(spec('whisper'), store, directory)).toBe(
      Date.UTC(2024, 4, 1) / 1000,
    );
    expect(await modelCreatedAt(spec('amy'), store, directory)).toBe(1_700_000_000);
  });

  it("takes a local directory's modification time, not the time of loading", async () => {
    const model = path.join(directory, 'model');
    mkdirSync(path.join(model, 'onnx'), { recursive: true });
    writeFileSync(path.join(model, 'onnx', 'model.onnx'), 'graph');
    utimesSync(model, 1_600_000_000, 1_600_000_000);
    const local = parseModelsFile(
      `models:\n  - id: local\n    capability: embeddings\n    source: ${model}\n`,
      path.join(directory, 'models.yaml'),
    ).models[0];
    expect(await modelCreatedAt(local, store, await store.resolve(local))).toBe(1_600_000_000);
    expect(await modelCreatedAt(local, store, await store.resolve(local))).toBe(1_600_000_000);
  });
});
