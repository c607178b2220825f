// Routing a request's `model` the way every endpoint does it: the model the router resolves for
// the request's key (404 unknown or not the key's, 400 other capability) is recorded on the request — its id for the request metrics'
// model label, the name as sent for the span's gen_ai.request.model.
import type { Capability } from '@tessera/contracts';
import type { ModelSpec } from '@tessera/models';
import { GEN_AI } from '@tessera/observability';
import type { FastifyRequest } from 'fastify';
import type { ModelRouter } from './model-router';

export function routeRequestModel(
  router: ModelRouter,
  request: FastifyRequest,
  name: string,
  capability: Capability,
): ModelSpec {
  const model = router.route(name, capability, request.tesseraKey);
  request.tesseraModel = model.id;
  request.tesseraSpan?.setAttribute(GEN_AI.requestModel, name);
  return model;
}
