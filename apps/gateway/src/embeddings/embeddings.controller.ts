import { Controller } from '@nestjs/common';
import { CAPABILITY_SERVICES } from '@tessera/contracts';
import { GEN_AI } from '@tessera/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { textTokensEstimate } from '../limits/text-tokens.estimate';
import { routeRequestModel } from '../routing/request-model.route';
import { TokenBilledController } from '../upstream/token-billed.controller';
import { parseEmbeddingsRequest } from './embeddings.request';
import { toOpenAIEmbeddings, type OpenAIEmbeddingsResponse } from './embeddings.response';

@Controller(CAPABILITY_SERVICES.embeddings.route)
export class EmbeddingsController extends TokenBilledController<OpenAIEmbeddingsResponse> {
  protected async answer(
    body: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<OpenAIEmbeddingsResponse> {
    const embeddings = parseEmbeddingsRequest(body);
    const model = routeRequestModel(this.router, request, embeddings.model, 'embeddings');
    request.tesseraSpan?.setAttribute(GEN_AI.requestEncodingFormats, [embeddings.encodingFormat]);
    const response = await this.billed(
      request,
      reply,
      // Token ids count exactly; text by its characters.
      () =>
        embeddings.inputs.reduce(
          (sum, input) =>
            sum + (input.tokens?.ids?.length ?? textTokensEstimate(input.text?.length ?? 0)),
          0,
        ),
      () =>
        this.upstreams.unary('embeddings', 'Embed', {
          model: model.id,
          inputs: embeddings.inputs,
          dimensions: embeddings.dimensions ?? 0,
          user: embeddings.user,
        }),
    );
    return toOpenAIEmbeddings(response, embeddings.encodingFormat, embeddings.model);
  }
}
