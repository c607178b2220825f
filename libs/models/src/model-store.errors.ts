// Errors of the model store. Each message says what failed and what the user can do about it,
// because it is what an operator reads in a pod log or on a terminal.

const OFFLINE_REMEDY =
  'Pull the model where the Hub is reachable and copy the cache (TESSERA_MODEL_CACHE), or point the models file at a local directory.';

/** `resolve` found no usable local copy; services fail start-up with it (they never download). */
export class ModelNotAvailableError extends Error {
  override readonly name = 'ModelNotAvailableError';

  constructor(
    readonly modelId: string,
    message: string,
  ) {
    super(message);
  }
}

/** A pull failed; `source` is the model's source as written (`hf:org/name`). */
export class ModelDownloadError extends Error {
  override readonly name: string = 'ModelDownloadError';

  constructor(
    readonly source: string,
    detail: string,
  ) {
    super(`cannot download ${source}: ${detail}`);
  }
}

/** Offline mode is on, so no request was made. */
export class HubOfflineError extends ModelDownloadError {
  override readonly name = 'HubOfflineError';

  constructor(source: string) {
    super(
      source,
      `offline mode is on (HF_HUB_OFFLINE or TESSERA_OFFLINE), so the Hugging Face Hub is not contacted. ${OFFLINE_REMEDY}`,
    );
  }
}

/** The Hub could not be reached at all: DNS failure, refused connection, no answer in time. */
export class HubUnreachableError extends ModelDownloadError {
  override readonly name = 'HubUnreachableError';

  constructor(source: string, endpoint: string, cause: string) {
    super(
      source,
      `the Hugging Face Hub at ${endpoint} is not reachable (${cause}). ${OFFLINE_REMEDY}`,
    );
  }
}

/** The Hub answered with an error status (401, 403, 404, 429, 5xx …). */
export class HubResponseError extends ModelDownloadError {
  override readonly name = 'HubResponseError';

  constructor(
    source: string,
    readonly status: number,
    detail: string,
  ) {
    super(source, detail);
  }
}

/** A file arrived incomplete or different from what the Hub announced; nothing was kept. */
export class DownloadIntegrityError extends ModelDownloadError {
  override readonly name = 'DownloadIntegrityError';

  constructor(
    source: string,
    readonly file: string,
    detail: string,
  ) {
    super(source, `${file}: ${detail}; the partial file was removed, run the pull again`);
  }
}
