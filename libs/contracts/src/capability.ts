// The five capabilities Tessera serves, each behind its own gRPC service.
export const CAPABILITIES = [
  'chat',
  'embeddings',
  'moderation',
  'speech',
  'transcription',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

/** The gRPC service of each capability, as named in `proto/tessera/v1/`. */
export const CAPABILITY_SERVICES: Record<Capability, { service: string; protoFile: string }> = {
  chat: { service: 'Chat', protoFile: 'tessera/v1/chat.proto' },
  embeddings: { service: 'Embeddings', protoFile: 'tessera/v1/embeddings.proto' },
  moderation: { service: 'Moderation', protoFile: 'tessera/v1/moderation.proto' },
  speech: { service: 'Speech', protoFile: 'tessera/v1/speech.proto' },
  transcription: { service: 'Transcription', protoFile: 'tessera/v1/transcription.proto' },
};

export const PROTO_PACKAGE = 'tessera.v1';

/** Fully-qualified service name, as used by grpc.health.v1 and in trace span names. */
export function qualifiedServiceName(capability: Capability): string {
  return `${PROTO_PACKAGE}.${CAPABILITY_SERVICES[capability].service}`;
}
