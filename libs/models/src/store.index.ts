// Public API of @tessera/models/store: the store that turns model sources into local directories
// (pulling from the Hugging Face Hub ahead of time, never at request time), and a model's
// `created` time, which asks it. A separate entry point from @tessera/models so that only the
// processes that open or pull models load the Hub client.
export { ModelStore, type ModelAvailability } from './model-store';
export { modelCreatedAt } from './model-created.resolver';
export type { PullOptions, PullProgressEvent, PullResult } from './hub-snapshot.puller';
export {
  DownloadIntegrityError,
  HubOfflineError,
  HubResponseError,
  HubUnreachableError,
  ModelDownloadError,
  ModelNotAvailableError,
} from './model-store.errors';
export type { HubReachability } from './hub-reachability.probe';
export { formatByteSize } from './byte-size.format';
export { RegistryBuildError, type RegistryBuildFailure } from './registry-build.error';
export { writeFileAtomically } from './hub-cache.layout';
