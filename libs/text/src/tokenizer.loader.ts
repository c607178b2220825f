// Loads a transformers.js tokenizer from a model directory, strictly offline: a missing file
// is an error, never a download, and nothing is written to a cache.
import { resolve } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';

export async function loadLocalTokenizer(modelDir: string): Promise<PreTrainedTokenizer> {
  // Imported lazily so workers without a tokenizer (most ORT sessions) skip loading it.
  const { AutoTokenizer, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
  // An absolute path never matches transformers.js' Hub-id pattern, so it is read as a
  // filesystem path rather than joined onto `env.localModelPath`.
  return AutoTokenizer.from_pretrained(resolve(modelDir), { local_files_only: true });
}
