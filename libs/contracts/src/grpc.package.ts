// Loads the typed service definitions generated from proto/ (see `npm run proto:gen`).
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { CAPABILITY_SERVICES, type Capability } from './capability';
import { PROTO_LOADER_OPTIONS, protoRoot } from './grpc.options';
import type { ProtoGrpcType as ChatProto } from './generated/chat';
import type { ProtoGrpcType as EmbeddingsProto } from './generated/embeddings';
import type { ProtoGrpcType as ModerationProto } from './generated/moderation';
import type { ProtoGrpcType as SpeechProto } from './generated/speech';
import type { ProtoGrpcType as TranscriptionProto } from './generated/transcription';

interface CapabilityProtos {
  chat: ChatProto['tessera']['v1']['Chat'];
  embeddings: EmbeddingsProto['tessera']['v1']['Embeddings'];
  moderation: ModerationProto['tessera']['v1']['Moderation'];
  speech: SpeechProto['tessera']['v1']['Speech'];
  transcription: TranscriptionProto['tessera']['v1']['Transcription'];
}

const loaded = new Map<Capability, unknown>();

/** The client constructor (with `.service`, the server definition) of a capability's service. */
export function loadService<C extends Capability>(capability: C): CapabilityProtos[C] {
  const cached = loaded.get(capability);
  if (cached) return cached as CapabilityProtos[C];
  const { protoFile, service } = CAPABILITY_SERVICES[capability];
  const definition = protoLoader.loadSync(protoFile, {
    ...PROTO_LOADER_OPTIONS,
    includeDirs: [protoRoot()],
  });
  const root = grpc.loadPackageDefinition(definition) as unknown as {
    tessera: { v1: Record<string, unknown> };
  };
  const constructor = root.tessera.v1[service];
  loaded.set(capability, constructor);
  return constructor as CapabilityProtos[C];
}
