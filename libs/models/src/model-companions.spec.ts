import { companionSpecs } from './model-companions';
import { parseModelsFile } from './models-file.loader';

const file = parseModelsFile(
  `models:
  - id: guard
    capability: moderation
    source: hf:org/toxic@v1
    dtype: q8
    options:
      categories: { hate: { labels: [identity_hate] } }
      classifiers:
        - source: ./self-harm
          categories: { self-harm: { labels: [self_harm] } }
        - source: hf:org/sexual
          file: onnx/model_quantized.onnx
          categories: { sexual: { labels: [sexual] } }
  - id: plain
    capability: embeddings
    source: hf:org/minilm
  - id: voices
    capability: speech
    source: hf:rhasspy/piper-voices@v1.0.0
    file: en/a.onnx
    options:
      voices:
        alloy: { speaker: 3 }
        echo: { file: en/a.onnx, speaker: 4 }
        onyx: { file: en/b.onnx }
        fable: { file: en/b.onnx }
`,
  '/srv/config/models.yaml',
);

describe('companion models', () => {
  it('are the classifiers an entry lists, resolved like sources, under the entry’s id', () => {
    const [local, hub] = companionSpecs(file.models[0], '/srv/config');
    expect(local).toMatchObject({
      id: 'guard',
      source: { kind: 'local', path: '/srv/config/self-harm' },
      file: undefined,
      dtype: undefined,
    });
    expect(hub).toMatchObject({
      id: 'guard',
      source: { kind: 'hf', repo: 'org/sexual', revision: 'main' },
      file: 'onnx/model_quantized.onnx',
      dtype: undefined,
    });
  });

  it('are the voice files of a speech model other than its own, once each, in its source', () => {
    expect(companionSpecs(file.models[2], '/srv/config')).toEqual([
      { ...file.models[2], file: 'en/b.onnx', dtype: undefined },
    ]);
  });

  it('are none for an entry without classifiers', () => {
    expect(companionSpecs(file.models[1], '/srv/config')).toEqual([]);
  });
});
