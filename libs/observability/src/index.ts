export * from './tracing';
export * from './grpc-trace-context';
export * from './gen-ai.attributes';
export * from './metrics.registry';
export * from './probes.controller';
export * from './grpc-server-span';
export * from './grpc-server.metrics';
