// The capability registry: the one table of the five capabilities Tessera serves, each behind its
// own gRPC service. The gateway's upstream variables, the models file's `capability` values, the
// launcher's list of services and the benchmarks all derive from it, so a new capability (or a
// service that comes to exist) is one row here.

/** One row of the registry (not to be confused with @tessera/service's CapabilityService). */
export interface CapabilityEntry {
  /** The gRPC service, as named in `proto/tessera/v1/`. */
  readonly service: string;
  /** Its proto file, relative to `proto/`. */
  readonly protoFile: string;
  /** The OpenAI route the gateway serves it on. */
  readonly route: string;
  /**
   * The Nest project (`nest-cli.json`, `apps/<project>/`) that implements the service, or null
   * while none exists: the launcher starts only these, and the gateway answers 503 for the rest.
   */
  readonly project: string | null;
}

export const CAPABILITY_SERVICES = {
  chat: {
    service: 'Chat',
    protoFile: 'tessera/v1/chat.proto',
    route: '/v1/chat/completions',
    project: 'chat',
  },
  embeddings: {
    service: 'Embeddings',
    protoFile: 'tessera/v1/embeddings.proto',
    route: '/v1/embeddings',
    project: 'embeddings',
  },
  moderation: {
    service: 'Moderation',
    protoFile: 'tessera/v1/moderation.proto',
    route: '/v1/moderations',
    project: 'moderation',
  },
  speech: {
    service: 'Speech',
    protoFile: 'tessera/v1/speech.proto',
    route: '/v1/audio/speech',
    project: 'speech',
  },
  transcription: {
    service: 'Transcription',
    protoFile: 'tessera/v1/transcription.proto',
    route: '/v1/audio/transcriptions',
    project: 'transcription',
  },
} as const satisfies Record<string, CapabilityEntry>;

export type Capability = keyof typeof CAPABILITY_SERVICES;

/** Every capability, in the registry's order (a non-empty tuple, as `z.enum` wants). */
export const CAPABILITIES = Object.keys(CAPABILITY_SERVICES) as [Capability, ...Capability[]];

export const PROTO_PACKAGE = 'tessera.v1';

/** Fully-qualified service name, as used by grpc.health.v1 and in trace span names. */
export function qualifiedServiceName(capability: Capability): string {
  return `${PROTO_PACKAGE}.${CAPABILITY_SERVICES[capability].service}`;
}

/** The gateway's environment variable for a capability's gRPC address. */
export function upstreamAddressVariable(capability: Capability): string {
  return `TESSERA_${capability.toUpperCase()}_ADDR`;
}

/** A capability whose service exists, with the Nest project that implements it. */
export interface ImplementedCapability {
  readonly capability: Capability;
  readonly project: string;
  /**
   * The service's entry point relative to the build output (`dist/`), the same for
   * `npm run build` and `nest build <project>` (both compile the repository root into `dist/`).
   */
  readonly entry: string;
}

/** The capabilities that have a service, in the registry's order. */
export function implementedCapabilities(): ImplementedCapability[] {
  return CAPABILITIES.flatMap((capability) => {
    const project: string | null = CAPABILITY_SERVICES[capability].project;
    return project ? [{ capability, project, entry: `apps/${project}/src/main.js` }] : [];
  });
}
