// GET /v1/models and /v1/models/{id}: what the capability services report they have loaded, as
// far as the request's key may see it.
import { Controller, Get, Inject, Param, Req } from '@nestjs/common';
import type { Capability, ModelInfo } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { MODEL_ROUTER } from '../gateway.injection';
import type { ModelRouter } from '../routing/model-router';
import { UpstreamClients } from '../upstream/upstream-clients';
import type { FastifyRequest } from 'fastify';
import { toOpenAIModel, type OpenAIModel } from './models.response';

const LIST_TIMEOUT_MS = 2000;

@Controller('v1/models')
export class ModelsController {
  constructor(
    private readonly upstreams: UpstreamClients,
    @Inject(MODEL_ROUTER) private readonly router: ModelRouter,
  ) {}

  @Get()
  async list(@Req() request: FastifyRequest): Promise<{ object: 'list'; data: OpenAIModel[] }> {
    const perService = await Promise.all(
      this.upstreams.configured().map((capability) => this.listOf(capability).catch(() => [])),
    );
    const visible = perService
      .flat()
      .filter((model) => this.router.permits(request.tesseraKey, model.id ?? ''));
    return { object: 'list', data: visible.map((model) => toOpenAIModel(model)) };
  }

  // A wildcard, not `:id`: model names may hold '/' (Qwen/Qwen2.5-0.5B-Instruct), which the
  // SDKs percent-encode but curl users type as it is.
  @Get('*')
  async retrieve(@Param('*') id: string, @Req() request: FastifyRequest): Promise<OpenAIModel> {
    const routed = this.router.find(id, request.tesseraKey);
    if (!routed) throw OpenAIError.modelNotFound(id);
    // An upstream that does not answer is a 503 here, not a "no such model".
    const models = await this.listOf(routed.capability);
    const model = models.find((m) => m.id === routed.id);
    if (!model) throw OpenAIError.modelNotFound(id);
    return toOpenAIModel(model, id);
  }

  private async listOf(capability: Capability): Promise<ModelInfo[]> {
    const response = await this.upstreams.unary(
      capability,
      'ListModels',
      {},
      { timeoutMs: LIST_TIMEOUT_MS },
    );
    return response.models ?? [];
  }
}
