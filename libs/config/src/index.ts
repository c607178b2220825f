export * from './api-keys.config';
export * from './env.schema';
export * from './ffmpeg.config';
export * from './gateway.config';
export * from './service.config';
