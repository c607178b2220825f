// What a capability service (embeddings, chat, moderation, speech, transcription) implements;
// everything else — the gRPC server with grpc.health.v1, ListModels, /healthz /readyz /metrics,
// readiness after warm-up, the drain on SIGTERM — is the shared host's.
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import type { ModelSpec } from '@tessera/models';

/** A model the service has loaded, as ListModels reports it. */
export interface ServedModel {
  readonly spec: ModelSpec;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`). */
  readonly created: number;
  /** Positions the model attends to (prompt + output), for chat models. */
  readonly contextLength?: number;
  /** What the model does beyond the service's capability (a chat model that takes images: 'vision'). */
  readonly extraCapabilities?: readonly string[];
  /** Moderation models: the OpenAI categories none of the model's classifiers scores. */
  readonly uncoveredCategories?: readonly string[];
  /** Speech models: the voice names the model accepts, sorted. */
  readonly voices?: readonly string[];
}

export interface CapabilityService {
  /** The gRPC methods of the capability's service except ListModels, which the host answers. */
  readonly handlers: UntypedServiceImplementation;
  /**
   * Loads and warms every model. The host listens before calling it (so health answers
   * NOT_SERVING meanwhile) and turns SERVING only once it resolves; a rejection stops the process.
   */
  load(): Promise<void>;
  /** The loaded models, for ListModels. */
  models(): readonly ServedModel[];
  /**
   * Parts readiness waits for besides "loaded and warmed" (a worker pool that must stay up, …),
   * by name; any false one turns /readyz and grpc.health.v1 NOT_SERVING until it recovers.
   */
  readiness?(): Record<string, boolean>;
  /** Frees the models, after the drain: no call is in flight any more. */
  close(): Promise<void>;
}

export const CAPABILITY_SERVICE = Symbol('CAPABILITY_SERVICE');
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

/** Which capability the module serves (the gRPC service and the health service name). */
export const SERVED_CAPABILITY = Symbol('SERVED_CAPABILITY');
