// Public API of @tessera/service: what every capability service shares (start-up, health,
// readiness after warm-up, drain, ListModels) and the contract a capability implements.
export * from './capability-service';
export { ServedModels, type ModelToOpen } from './served-models';
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
