import { Controller } from '@nestjs/common';
import { CAPABILITY_SERVICES, moderationMaxInputs } from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { textTokensEstimate } from '../limits/text-tokens.estimate';
import { routeRequestModel } from '../routing/request-model.route';
import { TokenBilledController } from '../upstream/token-billed.controller';
import { moderationInputs, parseModerationRequest, textInputs } from './moderation.request';
import { toOpenAIModeration, type OpenAIModerationResponse } from './moderation.response';

@Controller(CAPABILITY_SERVICES.moderation.route)
export class ModerationController extends TokenBilledController<OpenAIModerationResponse> {
  protected async answer(
    body: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<OpenAIModerationResponse> {
    const moderation = parseModerationRequest(body);
    const model = routeRequestModel(this.router, request, moderation.model, 'moderation');
    const inputs = moderationInputs(moderation.input, moderationMaxInputs(model.options));
    const texts = textInputs(inputs, moderation.model);
    const response = await this.billed(
      request,
      reply,
      () => texts.flat().reduce((sum, text) => sum + textTokensEstimate(text.length), 0),
      () =>
        this.upstreams.unary('moderation', 'Classify', {
          model: model.id,
          items: texts.map((parts) => ({ parts: parts.map((text) => ({ text })) })),
        }),
    );
    return toOpenAIModeration(response, moderation.model, texts.length);
  }
}
