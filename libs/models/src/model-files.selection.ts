// Which files of a model directory or Hub repository a model needs. Repositories hold many
// quantisations of the same graphs (and READMEs, PyTorch weights, …); downloading only what the
// chosen dtype needs keeps pulls small, and the same choice tells `resolve` what must be present.
import type { ModelSpec } from './model-spec';
import { DEFAULT_DTYPE, DTYPE_FILE_SUFFIXES, dtypeOfOnnxFile } from './onnx-file.naming';

// transformers.js runs encoder-decoder and decoder-only exports through the merged decoder (one
// graph with and without past key values); the unmerged pair is a duplicate of the same weights.
const SUPERSEDED_BY_MERGED_DECODER = new Set(['decoder_model', 'decoder_with_past_model']);

// Configs and vocabularies sit at the top level (config.json, tokenizer.json, vocab.txt, …);
// sentence-transformers modules keep theirs in numbered folders (1_Pooling/config.json).
const METADATA_FILE = /^(?:[^/]+\.(?:json|txt)|\d+_[^/]+\/config\.json)$/;

/**
 * The ONNX graphs the model runs, from the files available: the explicit `file`; else, for the
 * dtype, the single graph `onnx/model<suffix>.onnx` when there is one, or every graph of that
 * dtype under `onnx/` (encoder + decoder, vision encoder + embeddings + decoder, …).
 * Empty when the files hold no graph for the choice.
 */
export function onnxGraphsFor(
  spec: Pick<ModelSpec, 'file' | 'dtype'>,
  available: readonly string[],
): string[] {
  if (spec.file !== undefined) return available.includes(spec.file) ? [spec.file] : [];
  const dtype = spec.dtype ?? DEFAULT_DTYPE;
  const single = `onnx/model${DTYPE_FILE_SUFFIXES[dtype]}.onnx`;
  if (available.includes(single)) return [single];
  const graphs = available.filter(
    (file) =>
      /^onnx\/[^/]+\.onnx$/.test(file) && dtypeOfOnnxFile(file.slice('onnx/'.length)) === dtype,
  );
  const stem = (file: string): string =>
    file.slice('onnx/'.length, file.length - '.onnx'.length - DTYPE_FILE_SUFFIXES[dtype].length);
  const merged = graphs.some((file) => stem(file) === 'decoder_model_merged');
  return graphs.filter((file) => !(merged && SUPERSEDED_BY_MERGED_DECODER.has(stem(file)))).sort();
}

/** What the choice of graphs means, for messages: `onnx/model_quantized.onnx (dtype q8)`. */
export function describeOnnxChoice(spec: Pick<ModelSpec, 'file' | 'dtype'>): string {
  if (spec.file !== undefined) return spec.file;
  const dtype = spec.dtype ?? DEFAULT_DTYPE;
  const suffix = DTYPE_FILE_SUFFIXES[dtype];
  return `onnx/model${suffix}.onnx or other onnx/*${suffix}.onnx graphs (dtype ${dtype})`;
}

/**
 * Every file a model needs from a Hub repository: top-level configs and vocabularies,
 * sentence-transformers module configs, the ONNX graphs and what belongs to each graph (external
 * weights `<graph>_data…` / `<graph>.data`, a Piper voice's `<graph>.json`).
 */
export function hubFilesFor(
  spec: Pick<ModelSpec, 'file' | 'dtype'>,
  repoFiles: readonly string[],
): { graphs: string[]; files: string[] } {
  const graphs = onnxGraphsFor(spec, repoFiles);
  const companions = (graph: string) => (file: string) =>
    file === `${graph}.data` || file === `${graph}.json` || file.startsWith(`${graph}_data`);
  const files = repoFiles.filter(
    (file) =>
      METADATA_FILE.test(file) ||
      graphs.includes(file) ||
      graphs.some((graph) => companions(graph)(file)),
  );
  return { graphs, files: [...new Set(files)].sort() };
}
