export * from './env.schema';
export * from './gateway.config';
export * from './service.config';
