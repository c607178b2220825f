import { Body, Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { DEFAULT_CHAT_INPUTS, type ChatInputLimits, type GatewayConfig } from '@tessera/config';
import { CAPABILITY_SERVICES } from '@tessera/contracts';
import { GEN_AI } from '@tessera/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, MODEL_ROUTER } from '../gateway.injection';
import type { ModelRouter } from '../routing/model-router';
import { routeRequestModel } from '../routing/request-model.route';
import { writeSse } from '../sse/sse.writer';
import { ImageInputs } from '../images/image-inputs.service';
import { holdStreamSlot } from '../limits/stream-slots';
import { reserveUsage } from '../limits/usage-reservation';
import { UpstreamClients } from '../upstream/upstream-clients';
import { meteredStream } from '../usage/metered.stream';
import { ChatChunkMapper, chatChunks } from './chat-chunks';
import { ChatContextLengths } from './chat-context.lengths';
import { resolveImages } from './chat-images.resolve';
import { aggregateCompletion } from './chat-completion.aggregate';
import { parseChatCompletionRequest } from './chat.request';
import { completionIdentity } from './chat.response';
import { imagesOf, meterChatFrame } from './chat.usage';
import { chatTokensEstimate } from './chat-usage.estimate';

@Controller(CAPABILITY_SERVICES.chat.route)
export class ChatController {
  private readonly limits: ChatInputLimits;

  constructor(
    private readonly upstreams: UpstreamClients,
    @Inject(MODEL_ROUTER) private readonly router: ModelRouter,
    private readonly images: ImageInputs,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly contextLengths: ChatContextLengths,
  ) {
    this.limits = config.chatInputs ?? DEFAULT_CHAT_INPUTS;
  }

  /** The reply is sent here (not returned) since a stream takes the socket over. */
  @Post()
  async create(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const chat = parseChatCompletionRequest(body, this.limits);
    const model = routeRequestModel(this.router, request, chat.model, 'chat');
    await reserveUsage(request, reply, 'tokens', async () =>
      chatTokensEstimate(chat.generate, await this.contextLengths.of(model.id)),
    );
    if (chat.stream) holdStreamSlot(request, reply);
    await resolveImages(chat.generate, this.images);
    const identity = completionIdentity(model);
    const meter = request.tesseraUsage;
    meter?.measure({ images: imagesOf(chat.generate.messages) });
    const frames = meteredStream(
      this.upstreams.serverStream('chat', 'Generate', { model: model.id, ...chat.generate }),
      (frame) => meter && meterChatFrame(meter, frame),
    );
    const { sampling } = chat.generate;
    const logprobs = sampling.logprobs === true;
    if (chat.stream) {
      const mapper = new ChatChunkMapper(identity, { includeUsage: chat.includeUsage, logprobs });
      await writeSse(reply, chatChunks(frames, mapper), (chunk) => chunk);
      return;
    }
    const completion = await aggregateCompletion(frames, identity, {
      n: sampling.n ?? 1,
      logprobs,
    });
    request.tesseraSpan?.setAttributes({
      [GEN_AI.inputTokens]: completion.usage.prompt_tokens,
      [GEN_AI.outputTokens]: completion.usage.completion_tokens,
    });
    void reply.status(200).send(completion);
  }
}
