// Public API of @tessera/contracts: what both sides of a gRPC call share (the capability table,
// protos and their generated types, loader and channel options, the status and error-code
// vocabulary, the client side incl. health) and the request vocabulary the gateway validates and
// the services serve. It imports no other lib of ours, so the gateway loads none of the runtime.
export * from './capability';
export * from './grpc.options';
export * from './grpc.package';
export * from './grpc-error';
export * from './grpc-request-id.metadata';
export * from './grpc.health-client';
export type * from './generated/tessera/v1/EmbedRequest';
export type * from './generated/tessera/v1/EmbedResponse';
export type * from './generated/tessera/v1/EmbedInput';
export type * from './generated/tessera/v1/Embedding';
export type * from './generated/tessera/v1/ListModelsResponse';
export type * from './generated/tessera/v1/ModelInfo';
export type * from './generated/tessera/v1/Usage';
export type { EmbeddingsClient, EmbeddingsHandlers } from './generated/tessera/v1/Embeddings';
export type * from './generated/tessera/v1/GenerateRequest';
export type * from './generated/tessera/v1/GenerateResponse';
export type * from './generated/tessera/v1/ChatMessage';
export type * from './generated/tessera/v1/ContentPart';
export type * from './generated/tessera/v1/SamplingParams';
export type * from './generated/tessera/v1/Delta';
export type * from './generated/tessera/v1/Finish';
export type * from './generated/tessera/v1/TokenLogprob';
export type * from './generated/tessera/v1/TopLogprob';
export type { ChatClient, ChatHandlers } from './generated/tessera/v1/Chat';
export type * from './generated/tessera/v1/ResponseFormat';
export type * from './generated/tessera/v1/Tool';
export type * from './generated/tessera/v1/FunctionDefinition';
export type * from './generated/tessera/v1/ToolChoice';
export type * from './generated/tessera/v1/ToolCall';
export type * from './generated/tessera/v1/FunctionCall';
export type * from './generated/tessera/v1/ToolCallDelta';
export type * from './generated/tessera/v1/Image';
export type * from './generated/tessera/v1/ClassifyRequest';
export type * from './generated/tessera/v1/ClassifyResponse';
export type * from './generated/tessera/v1/ModerationItem';
export type * from './generated/tessera/v1/ModerationPart';
export type * from './generated/tessera/v1/ModerationResult';
export type * from './generated/tessera/v1/CategoryResult';
export type { ModerationClient, ModerationHandlers } from './generated/tessera/v1/Moderation';
export * from './moderation.categories';
export * from './moderation.bounds';
export * from './speech.bounds';
export * from './speech.formats';
export type * from './generated/tessera/v1/SynthesizeRequest';
export type * from './generated/tessera/v1/AudioChunk';
export type * from './generated/tessera/v1/SpeechUsage';
export type { SpeechClient, SpeechHandlers } from './generated/tessera/v1/Speech';
export type * from './generated/tessera/v1/TranscriptionConfig';
export type * from './generated/tessera/v1/TranscribeRequest';
export type * from './generated/tessera/v1/TranscribeEvent';
export type * from './generated/tessera/v1/TranscribeResponse';
export type * from './generated/tessera/v1/TranscriptDelta';
export type * from './generated/tessera/v1/Segment';
export type * from './generated/tessera/v1/Word';
export type {
  TranscriptionClient,
  TranscriptionHandlers,
} from './generated/tessera/v1/Transcription';
