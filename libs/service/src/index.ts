// Public API of @tessera/service: what every capability service shares (start-up, health,
// readiness after warm-up, drain, ListModels), the contract a capability implements, and the
// server half of gRPC: the server host, the handler wrapper and the runtime errors' statuses.
export * from './capability-service';
export { ServedModels, type ModelToOpen } from './served-models';
export { ModelExecutionProviders } from './model-execution-providers';
export { CapabilityServiceHost } from './capability-service.host';
export {
  capabilityServiceModule,
  type CapabilityServiceModuleOptions,
} from './capability-service.module';
export {
  runCapabilityService,
  startCapabilityService,
  type RunningService,
  type StartOptions,
} from './capability-service.bootstrap';
export { GrpcServerHost } from './grpc.server-host';
export { GrpcHandlerWrapper } from './grpc-handler.wrapper';
export type { GrpcCallContext } from './grpc-call.context';
export { grpcStatusErrorOf, knownGrpcStatusErrorOf } from './runtime-error.status';
