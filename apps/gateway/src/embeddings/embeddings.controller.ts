import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { CAPABILITY_SERVICES } from '@tessera/contracts';
import { GEN_AI } from '@tessera/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MODEL_ROUTER } from '../gateway.injection';
import type { ModelRouter } from '../routing/model-router';
import { reserveUsage } from '../limits/usage-reservation';
import { textTokensEstimate } from '../limits/text-tokens.estimate';
import { routeRequestModel } from '../routing/request-model.route';
import { UpstreamClients } from '../upstream/upstream-clients';
import { parseEmbeddingsRequest } from './embeddings.request';
import { toOpenAIEmbeddings, type OpenAIEmbeddingsResponse } from './embeddings.response';

@Controller(CAPABILITY_SERVICES.embeddings.route)
export class EmbeddingsController {
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
  ): Promise<OpenAIEmbeddingsResponse> {
    const embeddings = parseEmbeddingsRequest(body);
    const model = routeRequestModel(this.router, request, embeddings.model, 'embeddings');
    // Token ids count exactly; text by its characters.
    await reserveUsage(request, reply, 'tokens', () =>
      embeddings.inputs.reduce(
        (sum, input) =>
          sum + (input.tokens?.ids?.length ?? textTokensEstimate(input.text?.length ?? 0)),
        0,
      ),
    );
    request.tesseraSpan?.setAttribute(GEN_AI.requestEncodingFormats, [embeddings.encodingFormat]);
    const response = await this.upstreams.unary('embeddings', 'Embed', {
      model: model.id,
      inputs: embeddings.inputs,
      dimensions: embeddings.dimensions ?? 0,
      user: embeddings.user,
    });
    const inputTokens = response.usage?.prompt_tokens ?? 0;
    request.tesseraSpan?.setAttribute(GEN_AI.inputTokens, inputTokens);
    request.tesseraUsage?.measure({ inputTokens });
    return toOpenAIEmbeddings(response, embeddings.encodingFormat, embeddings.model);
  }
}
