export * from './tracing';
export * from './grpc-trace-context';
export * from './gen-ai.attributes';
export * from './metrics.registry';
export * from './probes.controller';
export * from './grpc-call.spans';
export * from './grpc-server.metrics';
export * from './model-run.span';
