import { ModelDownloadError } from './model-store.errors';

/**
 * Why a registry build could not run or did not finish: `tool` (no fixture tool here),
 * `disk` (not enough free space), `prerequisite` (the fixture tool lacks something it needs,
 * such as Python 3.11), `failed` (the converter failed), `output` (it did not write the files
 * the model needs).
 */
export type RegistryBuildFailure = 'tool' | 'disk' | 'prerequisite' | 'failed' | 'output';

/** A registry source could not be built; the message names the model and says what to do. */
export class RegistryBuildError extends ModelDownloadError {
  override readonly name = 'RegistryBuildError';

  constructor(
    readonly modelId: string,
    source: string,
    readonly reason: RegistryBuildFailure,
    detail: string,
  ) {
    super(source, detail);
    this.message = `model ${modelId}: cannot build ${source}: ${detail}`;
  }
}
