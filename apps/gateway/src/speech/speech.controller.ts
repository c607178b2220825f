import { Body, Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { CAPABILITY_SERVICES } from '@tessera/contracts';
import { GEN_AI } from '@tessera/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MODEL_ROUTER } from '../gateway.injection';
import { writeStreamReply } from '../http/stream-reply.writer';
import type { ModelRouter } from '../routing/model-router';
import { routeRequestModel } from '../routing/request-model.route';
import { holdStreamSlot } from '../limits/stream-slots';
import { reserveUsage } from '../limits/usage-reservation';
import { UpstreamClients } from '../upstream/upstream-clients';
import { speechAudioBody } from './speech-audio.body';
import { speechSseBody } from './speech-sse.body';
import { parseSpeechRequest } from './speech.request';
import { SpeechUsageRecord } from './speech.usage';

@Controller(CAPABILITY_SERVICES.speech.route)
export class SpeechController {
  constructor(
    private readonly upstreams: UpstreamClients,
    @Inject(MODEL_ROUTER) private readonly router: ModelRouter,
  ) {}

  /** The reply is sent here (not returned): the audio goes out as the service makes it. */
  @Post()
  async create(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const speech = parseSpeechRequest(body);
    const model = routeRequestModel(this.router, request, speech.model, 'speech');
    // What is billed, known exactly: the input's characters (code points).
    const characters = [...speech.input].length;
    await reserveUsage(request, reply, 'characters', () => characters);
    // Every answer is streamed (audio sentence by sentence, or events).
    holdStreamSlot(request, reply);
    // A long input may take longer than the request timeout to speak: the service admits only
    // what it can finish in time at its measured rate, and once admitted the audio is not cut
    // while it keeps coming, only when none comes for the request timeout (docs/speech.md).
    const chunks = this.upstreams.serverStream(
      'speech',
      'Synthesize',
      {
        model: model.id,
        input: speech.input,
        voice: speech.voice,
        response_format: speech.responseFormat,
        speed: speech.speed,
        instructions: speech.instructions,
      },
      { timeoutPer: 'message' },
    );
    const usage = new SpeechUsageRecord();
    // Billed by the input's characters (code points), as OpenAI prices speech; the encoder's
    // output is not aligned with sentences, so a stream the client left is billed for all of
    // them (docs/usage.md).
    request.tesseraUsage?.measure({ characters });
    await writeStreamReply(
      reply,
      chunks,
      speech.streamFormat === 'sse'
        ? speechSseBody(usage)
        : speechAudioBody(speech.responseFormat, usage),
    );
    const reported = usage.usage();
    if (reported) {
      request.tesseraSpan?.setAttributes({
        [GEN_AI.inputTokens]: reported.input_tokens,
        [GEN_AI.outputTokens]: reported.output_tokens,
      });
    }
  }
}
