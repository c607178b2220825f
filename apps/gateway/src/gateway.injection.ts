// Nest injection keys for the two values the core module provides but Nest does not construct:
// the configuration (an interface, so there is no class to key it by) and the model router (built
// by a factory from the models file). Symbols, so they cannot collide with any other key.
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const MODEL_ROUTER = Symbol('MODEL_ROUTER');
