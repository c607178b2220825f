import type { ServiceConfig } from '@tessera/config';

export type EmbeddingsServiceConfig = ServiceConfig;
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
