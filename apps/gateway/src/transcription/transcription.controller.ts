// POST /v1/audio/transcriptions and /v1/audio/translations: the upload is read as it arrives
// (audio-form.reader.ts), its fields validated (transcription.request.ts), the model routed,
// then one Transcribe call per request: the config first, then the audio in messages of at most
// 1 MiB, and the answer rendered as the response_format asks (transcription.response.ts) or
// streamed as transcript.text.* events (transcription-sse.body.ts).
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import {
  CAPABILITY_SERVICES,
  type TranscribeEvent__Output,
  type TranscribeRequest,
} from '@tessera/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OpenAIError } from '../errors/openai-error';
import { MODEL_ROUTER } from '../gateway.injection';
import { writeStreamReply } from '../http/stream-reply.writer';
import type { ModelRouter } from '../routing/model-router';
import { routeRequestModel } from '../routing/request-model.route';
import { holdStreamSlot } from '../limits/stream-slots';
import { UpstreamClients } from '../upstream/upstream-clients';
import { meteredStream } from '../usage/metered.stream';
import type { UpstreamStream } from '../upstream/upstream.streams';
import { readAudioForm, type AudioForm, type AudioFormFile } from './audio-form.reader';
import {
  checkFieldsBeforeFile,
  parseTranscriptionFields,
  type TranscriptionRequest,
  type TranscriptionTask,
} from './transcription.request';
import { transcriptBody } from './transcription.response';
import { transcriptSseBody } from './transcription-sse.body';

/** The translations route: the same service and call, task "translate". */
export const TRANSLATIONS_ROUTE = '/v1/audio/translations';

@Controller()
export class TranscriptionController {
  constructor(
    private readonly upstreams: UpstreamClients,
    @Inject(MODEL_ROUTER) private readonly router: ModelRouter,
  ) {}

  @Post(CAPABILITY_SERVICES.transcription.route)
  transcribe(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.answer('transcribe', request, reply);
  }

  @Post(TRANSLATIONS_ROUTE)
  translate(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.answer('translate', request, reply);
  }

  private async answer(
    task: TranscriptionTask,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const { transcription, file } = await this.readRequest(task, request, reply);
    const model = routeRequestModel(this.router, request, transcription.model, 'transcription');
    if (transcription.stream) holdStreamSlot(request, reply);
    const events = this.upstreams.bidiStream(
      'transcription',
      'Transcribe',
      uploadMessages(model.id, transcription, file),
    );
    // Billed by seconds of audio: the whole duration with the transcript (the last event); a
    // stream the client leaves, up to the end of the last segment it was sent.
    const metered = meteredStream(events, (event) => {
      const audioSeconds = event.done?.duration ?? event.delta?.audio_end;
      if (audioSeconds !== undefined) request.tesseraUsage?.measure({ audioSeconds });
    });
    if (transcription.stream) {
      await writeStreamReply(reply, metered, transcriptSseBody());
      return;
    }
    const { contentType, body } = transcriptBody(await transcriptOf(metered), transcription);
    // 200, as OpenAI answers (Nest's default for a POST would be 201).
    await reply.status(200).type(contentType).send(body);
  }

  /**
   * The whole form, checked. A request refused before its body was read to the end is answered
   * with `connection: close`, so that Node does not read (and discard) the rest of the upload.
   */
  private async readRequest(
    task: TranscriptionTask,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ transcription: TranscriptionRequest; file: AudioFormFile }> {
    try {
      const form = await readAudioForm(request, (fields) => {
        const model = checkFieldsBeforeFile(fields, task);
        if (model !== undefined) this.router.route(model, 'transcription', request.tesseraKey);
      });
      return { transcription: parseTranscriptionFields(form.fields, task), file: fileOf(form) };
    } catch (error) {
      if (!request.raw.complete) void reply.header('connection', 'close');
      throw error;
    }
  }
}

function fileOf(form: AudioForm): AudioFormFile {
  if (!form.file) throw OpenAIError.badRequest("Missing required parameter: 'file'.", 'file');
  if (form.file.audio.bytes === 0) {
    throw OpenAIError.badRequest("Invalid 'file': the file is empty.", 'file');
  }
  return form.file;
}

/** The Transcribe call's messages: the config, then the held audio, released as it is sent. */
async function* uploadMessages(
  model: string,
  transcription: TranscriptionRequest,
  file: AudioFormFile,
): AsyncGenerator<TranscribeRequest> {
  yield {
    config: {
      model,
      task: transcription.task,
      language: transcription.language ?? '',
      prompt: transcription.prompt,
      temperature: transcription.temperature,
      timestamp_granularities: transcription.granularities,
      filename: file.filename,
      content_type: file.contentType,
      stream: transcription.stream,
    },
  };
  for (const block of file.audio.take()) yield { audio: block };
}

/** The transcript: the service's `done`, its last message (read to the call's end). */
async function transcriptOf(events: UpstreamStream<TranscribeEvent__Output>) {
  let transcript: TranscribeEvent__Output['done'];
  for await (const event of events) transcript = event.done ?? transcript;
  if (!transcript) {
    throw new Error('the transcription service ended the call without its transcript');
  }
  return transcript;
}
