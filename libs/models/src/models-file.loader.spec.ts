import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadModelsFile, parseModelsFile } from './models-file.loader';
import { ModelsFileError } from './models-file.error';
import { modelsFor } from './models-file.query';

const FILE = '/srv/tessera/models.yaml';

function problemsOf(text: string): string {
  try {
    parseModelsFile(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelsFileError);
    return (error as ModelsFileError).message;
  }
  throw new Error('expected the models file to be rejected');
}

const VALID = `
models:
  - id: all-minilm-l6-v2
    capability: embeddings
    source: hf:Xenova/all-MiniLM-L6-v2
    aliases: [text-embedding-3-small, text-embedding-ada-002]
    options:
      max_batch_tokens: 8192
  - id: whisper
    capability: transcription
    source: ../models/whisper-tiny
    dtype: q8
    owned_by: openai
  - id: amy
    capability: speech
    source: hf:rhasspy/piper-voices@v1.0.0
    file: en/en_US/amy/medium/en_US-amy-medium.onnx
`;

describe('parseModelsFile', () => {
  it('reads a valid file into model specs with defaults', () => {
    const file = parseModelsFile(VALID, FILE);
    expect(file.path).toBe(FILE);
    expect(file.models).toEqual([
      {
        id: 'all-minilm-l6-v2',
        capability: 'embeddings',
        source: {
          kind: 'hf',
          repo: 'Xenova/all-MiniLM-L6-v2',
          revision: 'main',
          raw: 'hf:Xenova/all-MiniLM-L6-v2',
        },
        aliases: ['text-embedding-3-small', 'text-embedding-ada-002'],
        owned_by: 'tessera',
        options: { max_batch_tokens: 8192 },
      },
      {
        id: 'whisper',
        capability: 'transcription',
        source: { kind: 'local', path: '/srv/models/whisper-tiny', raw: '../models/whisper-tiny' },
        dtype: 'q8',
        aliases: [],
        owned_by: 'openai',
        options: {},
      },
      {
        id: 'amy',
        capability: 'speech',
        source: {
          kind: 'hf',
          repo: 'rhasspy/piper-voices',
          revision: 'v1.0.0',
          raw: 'hf:rhasspy/piper-voices@v1.0.0',
        },
        file: 'en/en_US/amy/medium/en_US-amy-medium.onnx',
        aliases: [],
        owned_by: 'tessera',
        options: {},
      },
    ]);
  });

  it('keeps absolute local sources as they are', () => {
    const file = parseModelsFile(
      'models: [{id: m, capability: chat, source: /opt/models/llama}]',
      FILE,
    );
    expect(file.models[0]?.source).toEqual({
      kind: 'local',
      path: '/opt/models/llama',
      raw: '/opt/models/llama',
    });
  });

  it('reads a registry source as the recipe it names', () => {
    const file = parseModelsFile(
      'models: [{id: m, capability: chat, source: "registry:smollm2-135m-instruct"}]',
      FILE,
    );
    expect(file.models[0]?.source).toEqual({
      kind: 'registry',
      recipe: 'smollm2-135m-instruct',
      raw: 'registry:smollm2-135m-instruct',
    });
  });

  it('loads the starter models file, whose entries name registry sources', () => {
    const starter = loadModelsFile(path.join(__dirname, '../../../config/models.starter.yaml'));
    expect(
      starter.models.map(({ id, capability, source }) => [id, capability, source.kind]),
    ).toEqual([
      ['smollm2-135m-instruct', 'chat', 'registry'],
      ['smollm2-135m-instruct-q4', 'chat', 'registry'],
      ['tiny-smolvlm', 'chat', 'local'],
      ['all-minilm-l6-v2', 'embeddings', 'registry'],
      ['tiny-moderation', 'moderation', 'local'],
      ['piper-joe', 'speech', 'registry'],
      ['whisper-tiny-en', 'transcription', 'registry'],
    ]);
  });

  it("the starter file answers to the default file's aliases and voice names", () => {
    const config = path.join(__dirname, '../../../config');
    const starter = loadModelsFile(path.join(config, 'models.starter.yaml'));
    const defaults = loadModelsFile(path.join(config, 'models.yaml'));
    const voices = (file: typeof starter) =>
      file.models
        .filter((model) => model.capability === 'speech')
        .flatMap((model) => Object.keys(model.options.voices as object))
        .sort();
    expect(voices(starter)).toEqual(voices(defaults));
    for (const model of defaults.models) {
      const served = modelsFor(starter, model.capability).flatMap((one) => one.aliases);
      expect(served).toEqual(expect.arrayContaining(model.aliases));
    }
  });

  it('selects models by capability', () => {
    const file = parseModelsFile(VALID, FILE);
    expect(modelsFor(file, 'embeddings').map((model) => model.id)).toEqual(['all-minilm-l6-v2']);
    expect(modelsFor(file, 'chat')).toEqual([]);
  });

  it.each([
    [
      'a missing field',
      'models: [{id: m, source: hf:a/b}]',
      'line 1, models[0] (id "m"), field "capability": is required',
    ],
    [
      'an unknown capability',
      'models:\n  - id: m\n    capability: embedding\n    source: hf:a/b',
      'line 3, models[0] (id "m"), field "capability": must be one of chat, embeddings, moderation, speech, transcription (got "embedding")',
    ],
    [
      'an unknown field',
      'models:\n  - id: m\n    capability: chat\n    source: hf:a/b\n    alias: [x]',
      'line 5, models[0] (id "m"), field "alias": unknown field (allowed: id, capability, source, file, dtype, aliases, owned_by, created, options)',
    ],
    [
      'an unknown top-level field',
      'version: 2\nmodels: [{id: m, capability: chat, source: hf:a/b}]',
      'line 1, field "version": unknown field (allowed: models)',
    ],
    [
      'a created that is not a time',
      'models: [{id: m, capability: chat, source: hf:a/b, created: yesterday}]',
      'field "created": must be Unix seconds or a date such as 2024-05-01',
    ],
    [
      'an unknown dtype',
      'models: [{id: m, capability: chat, source: hf:a/b, dtype: int4}]',
      'field "dtype": must be one of fp32, fp16, q8, int8, uint8, q4, q4f16, bnb4 (got "int4")',
    ],
    [
      'a malformed hub source',
      'models: [{id: m, capability: chat, source: "hf:all-MiniLM"}]',
      'field "source": "hf:all-MiniLM" must name a Hub repository as hf:<org>/<name>[@<revision>]',
    ],
    [
      'an unknown registry recipe',
      'models: [{id: m, capability: chat, source: "registry:llama-70b"}]',
      'field "source": "registry:llama-70b" must name a registry recipe: registry:smollm2-135m-instruct, registry:all-minilm-l6-v2, registry:piper-joe, registry:whisper-tiny-en',
    ],
    [
      'an empty source',
      'models: [{id: m, capability: chat, source: ""}]',
      'field "source": must not be empty',
    ],
    [
      'a file outside the model directory',
      'models: [{id: m, capability: chat, source: hf:a/b, file: ../x.onnx}]',
      'field "file": must be a relative path inside the model directory',
    ],
    [
      'a file that is not ONNX',
      'models: [{id: m, capability: chat, source: hf:a/b, file: model.bin}]',
      'field "file": must name an .onnx file',
    ],
    [
      'both file and dtype',
      'models: [{id: m, capability: chat, source: hf:a/b, file: onnx/model.onnx, dtype: q8}]',
      'field "dtype": cannot be combined with "file"',
    ],
    [
      'an id with spaces',
      'models: [{id: "my model", capability: chat, source: hf:a/b}]',
      'field "id": must start with a letter or digit',
    ],
    [
      'aliases that are not a list',
      'models: [{id: m, capability: chat, source: hf:a/b, aliases: gpt-4}]',
      'field "aliases": must be a list (got string "gpt-4")',
    ],
    [
      'a non-string alias',
      'models: [{id: m, capability: chat, source: hf:a/b, aliases: [gpt-4, 5]}]',
      'field "aliases[1]": must be a string (got number 5)',
    ],
    [
      'options that are not a mapping',
      'models: [{id: m, capability: chat, source: hf:a/b, options: [1]}]',
      'field "options": must be a mapping (got a list)',
    ],
    ['no models', 'models: []', 'field "models": must list at least one model'],
    [
      'models that are not a list',
      'models: {id: m}',
      'field "models": must be a list (got a mapping)',
    ],
    ['an empty file', '# nothing here\n', 'is empty; it must contain a top-level "models:" list'],
    ['broken YAML', 'models:\n  - id: [m\n', 'not valid YAML'],
  ])('rejects %s, naming the file and the field', (_case, text, expected) => {
    const message = problemsOf(text);
    expect(message).toContain(`invalid models file ${FILE}`);
    expect(message).toContain(expected);
  });

  it('lists every problem of the file at once', () => {
    const message = problemsOf(
      'models:\n  - id: a\n    capability: chats\n  - id: b\n    capability: chat\n    source: hf:x\n',
    );
    expect(message.split('\n')).toEqual([
      `invalid models file ${FILE}:`,
      '  - line 3, models[0] (id "a"), field "capability": must be one of chat, embeddings, moderation, speech, transcription (got "chats")',
      '  - line 2, models[0] (id "a"), field "source": is required',
      expect.stringContaining(
        'line 6, models[1] (id "b"), field "source": "hf:x" must name a Hub repository',
      ),
    ]);
  });

  it('rejects a duplicate id, pointing at the first use', () => {
    const message = problemsOf(
      'models:\n  - id: m\n    capability: chat\n    source: hf:a/b\n  - id: m\n    capability: embeddings\n    source: hf:a/c\n',
    );
    expect(message).toContain(
      'line 5, models[1] (id "m"), field "id": "m" is already the id of models[0] (id "m") (line 2); ids and aliases must be unique across the file',
    );
  });

  it('rejects an alias equal to another model id', () => {
    const message = problemsOf(
      'models:\n  - id: gpt-4o\n    capability: chat\n    source: hf:a/b\n  - id: m\n    capability: chat\n    source: hf:a/c\n    aliases: [gpt-4o]\n',
    );
    expect(message).toContain(
      'line 8, models[1] (id "m"), field "aliases[0]": "gpt-4o" is already the id of models[0] (id "gpt-4o")',
    );
  });

  it('rejects an alias used by two models, and an alias repeating its own id', () => {
    const message = problemsOf(
      'models:\n  - {id: a, capability: chat, source: hf:a/b, aliases: [gpt-4, a]}\n  - {id: b, capability: chat, source: hf:a/c, aliases: [gpt-4]}\n',
    );
    expect(message).toContain(
      'models[0] (id "a"), field "aliases[1]": "a" is already the id of this model',
    );
    expect(message).toContain(
      'models[1] (id "b"), field "aliases[0]": "gpt-4" is already the alias of models[0] (id "a")',
    );
  });
});

describe('loadModelsFile', () => {
  let directory: string;
  beforeEach(() => (directory = mkdtempSync(path.join(os.tmpdir(), 'tessera-models-file-'))));
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('resolves local sources against the directory of the models file', () => {
    const file = path.join(directory, 'config', 'models.yaml');
    mkdirSync(path.dirname(file));
    writeFileSync(
      file,
      'models: [{id: m, capability: embeddings, source: ../test/fixtures/models/bert}]',
    );
    const models = loadModelsFile(path.relative(process.cwd(), file));
    expect(models.path).toBe(file);
    expect(models.models[0]?.source).toMatchObject({
      kind: 'local',
      path: path.join(directory, 'test/fixtures/models/bert'),
    });
  });

  it('names the file it cannot read', () => {
    const missing = path.join(directory, 'nope.yaml');
    expect(() => loadModelsFile(missing)).toThrow(
      `invalid models file ${missing}: cannot be read (ENOENT`,
    );
  });
});
