export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const MODEL_ROUTER = Symbol('MODEL_ROUTER');
