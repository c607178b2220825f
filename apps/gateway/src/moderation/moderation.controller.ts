import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { CAPABILITY_SERVICES, moderationMaxInputs } from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MODEL_ROUTER } from '../gateway.injection';
import type { ModelRouter } from '../routing/model-router';
import { reserveUsage } from '../limits/usage-reservation';
import { textTokensEstimate } from '../limits/text-tokens.estimate';
import { routeRequestModel } from '../routing/request-model.route';
import { UpstreamClients } from '../upstream/upstream-clients';
import { moderationInputs, parseModerationRequest, textInputs } from './moderation.request';
import { toOpenAIModeration, type OpenAIModerationResponse } from './moderation.response';

@Controller(CAPABILITY_SERVICES.moderation.route)
export class ModerationController {
  constructor(
    private readonly upstreams: UpstreamClients,
    @Inject(MODEL_ROUTER) private readonly router: ModelRouter,
  ) {}

  @Post()
  @HttpCode(200)
  async create(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OpenAIModerationResponse> {
    const moderation = parseModerationRequest(body);
    const model = routeRequestModel(this.router, request, moderation.model, 'moderation');
    const inputs = moderationInputs(moderation.input, moderationMaxInputs(model.options));
    const texts = textInputs(inputs, moderation.model);
    await reserveUsage(request, reply, 'tokens', () =>
      texts.flat().reduce((sum, text) => sum + textTokensEstimate(text.length), 0),
    );
    const response = await this.upstreams.unary('moderation', 'Classify', {
      model: model.id,
      items: texts.map((parts) => ({ parts: parts.map((text) => ({ text })) })),
    });
    request.tesseraUsage?.measure({ inputTokens: response.usage?.prompt_tokens ?? 0 });
    return toOpenAIModeration(response, moderation.model, texts.length);
  }
}
