// GET /v1/models and /v1/models/{id}: what the capability services report they have loaded.
import { Controller, Get, Inject, Param } from '@nestjs/common';
import type { Capability, ModelInfo } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { MODEL_ROUTER } from '../gateway.tokens';
import type { ModelRouter } from '../routing/model-router';
import { UpstreamClients } from '../upstream/upstream-clients';
import { toOpenAIModel, type OpenAIModel } from './models.response';

const LIST_TIMEOUT_MS = 2000;

@Controller('v1/models')
export class ModelsController {
  constructor(
    private readonly upstreams: UpstreamClients,
    @Inject(MODEL_ROUTER) private readonly router: ModelRouter,
  ) {}

  @Get()
  async list(): Promise<{ object: 'list'; data: OpenAIModel[] }> {
    const perService = await Promise.all(
      this.upstreams.configured().map((capability) => this.listOf(capability).catch(() => [])),
    );
    return { object: 'list', data: perService.flat().map((model) => toOpenAIModel(model)) };
  }

  // A wildcard, not `:id`: model names may hold '/' (Qwen/Qwen2.5-0.5B-Instruct), which the
  // SDKs percent-encode but curl users type as it is.
  @Get('*')
  async retrieve(@Param('*') id: string): Promise<OpenAIModel> {
    const routed = this.router.find(id);
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
