// The shape of the JSON endpoints answered by one unary call to their capability's service and
// billed by input tokens (embeddings, moderation): POST, 200 with the OpenAI body. A subclass
// parses and routes the request, then makes its call through `billed`: the estimate is reserved
// from the key's token budget before the call, and the prompt tokens the service counted are
// what the request is measured (and billed) by.
import { Body, HttpCode, Inject, Injectable, Post, Req, Res } from '@nestjs/common';
import { GEN_AI } from '@tessera/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MODEL_ROUTER } from '../gateway.injection';
import { reserveUsage, type UsageEstimate } from '../limits/usage-reservation';
import type { ModelRouter } from '../routing/model-router';
import { UpstreamClients } from './upstream-clients';

/** What the service answers: its count of the input's tokens. */
interface CountedResponse {
  readonly usage?: { readonly prompt_tokens?: number } | null;
}

@Injectable()
export abstract class TokenBilledController<R> {
  constructor(
    protected readonly upstreams: UpstreamClients,
    @Inject(MODEL_ROUTER) protected readonly router: ModelRouter,
  ) {}

  @Post()
  @HttpCode(200)
  create(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<R> {
    return this.answer(body, request, reply);
  }

  /** The OpenAI response to `body`, its call made through `billed`. */
  protected abstract answer(
    body: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<R>;

  /**
   * Reserves `estimate` tokens (429 when the key's budget cannot cover it: no call is made),
   * makes the call and measures the request by the prompt tokens the service counted.
   */
  protected async billed<T extends CountedResponse>(
    request: FastifyRequest,
    reply: FastifyReply,
    estimate: UsageEstimate,
    call: () => Promise<T>,
  ): Promise<T> {
    await reserveUsage(request, reply, 'tokens', estimate);
    const response = await call();
    const inputTokens = response.usage?.prompt_tokens ?? 0;
    request.tesseraSpan?.setAttribute(GEN_AI.inputTokens, inputTokens);
    request.tesseraUsage?.measure({ inputTokens });
    return response;
  }
}
