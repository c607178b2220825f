// The Synthesize call: the request checked against the model (synthesize.request.ts), taken on
// by its voice's backlog or refused at once when the voice cannot finish it in time
// (synthesis.backlog.ts), the text normalised and phonemised into voice runs, each run
// synthesised in the voice's worker pool and fed to the format's encoder as soon as it is done
// (the next run is synthesised meanwhile), and the encoder's bytes streamed back as they come:
// content type and rate on the first message, usage on the last. The caller going away aborts
// `ctx.signal`: no further run starts and the encoder is killed.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SPEECH_OUTPUT_SAMPLE_RATE } from '@tessera/audio';
import {
  codePointLength,
  modelNotServed,
  AUDIO_CONTENT_TYPES,
  type AudioChunk,
  type SynthesizeRequest__Output,
} from '@tessera/contracts';
import { GEN_AI, endModelRunSpan, startModelRunSpan } from '@tessera/observability';
import type { GrpcCallContext } from '@tessera/service';
import { runAudio, textRuns } from '@tessera/tts';
import { SPEECH_ENCODE, type SpeechEncode } from './speech.encoder';
import { SPEECH_FRONT_END, type SpeechFrontEnd } from './speech.front-end';
import { SpeechModels, type SpeechModel } from './speech-models';
import type { BacklogTicket } from './synthesis.backlog';
import { checkSynthesis, type CheckedSynthesis } from './synthesize.request';

@Injectable()
export class SynthesizeHandler {
  private readonly logger = new Logger(SynthesizeHandler.name);

  constructor(
    private readonly models: SpeechModels,
    @Inject(SPEECH_FRONT_END) private readonly frontEnd: SpeechFrontEnd,
    @Inject(SPEECH_ENCODE) private readonly encode: SpeechEncode,
  ) {}

  async *synthesize(
    request: SynthesizeRequest__Output,
    ctx: GrpcCallContext,
  ): AsyncIterable<AudioChunk> {
    const model = this.models.find(request.model);
    if (!model) throw modelNotServed(request.model, 'speech');
    ctx.span.setAttribute(GEN_AI.requestModel, request.model);
    ctx.span.setAttribute(GEN_AI.responseModel, model.spec.id);
    const checked = checkSynthesis(model, request);
    // Before any work, so that a refusal costs the voice nothing; bounded by the time the call
    // has left too, when its caller gave it a deadline.
    const chars = codePointLength(request.input);
    const ticket = model.backlogs
      .get(checked.voice.voice)!
      .admit(chars, Math.max(0, (ctx.deadline - Date.now()) / 1000));
    try {
      yield* this.synthesizeAdmitted(request, ctx, model, checked, { chars, ticket });
    } finally {
      ticket.release();
    }
  }

  private async *synthesizeAdmitted(
    request: SynthesizeRequest__Output,
    ctx: GrpcCallContext,
    model: SpeechModel,
    { voice: mapped, format, speed }: CheckedSynthesis,
    { chars, ticket }: { chars: number; ticket: BacklogTicket },
  ): AsyncIterable<AudioChunk> {
    const { voice, speakerId } = mapped;
    // Phonemised while the encoder (an ffmpeg started through the spawn helper) starts up: the
    // first voice run is fed to it as soon as both are ready.
    const phonemised = textRuns(request.input, voice.config, {
      phonemizer: this.frontEnd.phonemizer,
      normalize: this.frontEnd.normalize,
      maxPhonemesPerRun: model.maxPhonemesPerRun,
    });
    phonemised.catch(() => undefined); // awaited below; a failure is thrown there

    let ids = 0;
    let samples = 0;
    const models = this.models;
    const logger = this.logger;
    const pcm = (async function* () {
      const { runs, missing } = await phonemised;
      ctx.signal.throwIfAborted();
      if (missing.length > 0) {
        logger.warn(`${model.spec.id}: phonemes the voice lacks, skipped: ${missing.join(' ')}`);
      }
      // Each run is credited its share of the input's characters, by its phoneme ids.
      const totalIds = runs.reduce((sum, run) => sum + run.length, 0);
      // The model run: every voice run synthesised, as the encoder takes them.
      const span = startModelRunSpan(ctx.span, 'speech', model.spec.id);
      let failure: unknown;
      try {
        for await (const run of runAudio(voice, runs, { speakerId, speed }, ctx.signal)) {
          models.countRun(model);
          ticket.ran((chars * run.ids) / totalIds, run.seconds);
          ids += run.ids;
          samples += run.pcm.length;
          yield run.pcm;
        }
      } catch (error) {
        failure = error ?? 'failed';
        throw error;
      } finally {
        span.setAttribute('tessera.batch.items', runs.length);
        span.setAttribute(GEN_AI.inputTokens, ids);
        endModelRunSpan(span, failure);
      }
    })();
    const head = {
      content_type: AUDIO_CONTENT_TYPES[format],
      sample_rate: SPEECH_OUTPUT_SAMPLE_RATE,
    };
    let first = true;
    const encoded = this.encode(pcm, {
      format,
      inputSampleRate: voice.sampleRate,
      signal: ctx.signal,
    });
    for await (const data of encoded) {
      if (data.length === 0) continue;
      const bytes = Buffer.isBuffer(data)
        ? data
        : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      yield first ? { data: bytes, ...head } : { data: bytes };
      first = false;
    }
    const usage = {
      input_tokens: ids,
      output_tokens: Math.floor(samples / voice.config.hop_length),
    };
    ctx.span.setAttribute(GEN_AI.inputTokens, usage.input_tokens);
    ctx.span.setAttribute(GEN_AI.outputTokens, usage.output_tokens);
    // The usage is known only once the encoder has flushed: a message of its own.
    yield { data: Buffer.alloc(0), ...(first ? head : {}), usage };
  }
}
