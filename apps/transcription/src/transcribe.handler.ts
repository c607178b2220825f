// The Transcribe call: the config message checked against the model (transcribe.request.ts),
// the audio chunks that follow decoded by ffmpeg to 16 kHz mono as they arrive (spooled to a
// temporary file, so the upload is held once, on disk), the model run over its 30 s windows, and
// with `stream` each segment's text sent as soon as its window is decoded; the whole transcript
// last. The caller going away aborts `ctx.signal`: ffmpeg is killed, no further window starts.
import { Injectable } from '@nestjs/common';
import { AudioDecodeError, TRANSCRIPTION_INPUT_FORMATS, decodeAudio } from '@tessera/audio';
import {
  WHISPER_SAMPLE_RATE,
  type TranscriptSegment,
  type TranscriptionResult,
} from '@tessera/asr';
import {
  modelNotServed,
  type Segment,
  type TranscribeEvent,
  type TranscribeRequest__Output,
  type TranscribeResponse,
  type TranscriptDelta,
} from '@tessera/contracts';
import { GEN_AI, inModelRunSpan } from '@tessera/observability';
import type { GrpcCallContext } from '@tessera/service';
import { checkTranscription, invalidTranscription } from './transcribe.request';
import { TranscriptionModels } from './transcription-models';

@Injectable()
export class TranscribeHandler {
  constructor(private readonly models: TranscriptionModels) {}

  async *transcribe(
    requests: AsyncIterable<TranscribeRequest__Output>,
    ctx: GrpcCallContext,
  ): AsyncIterable<TranscribeEvent> {
    const upload = requests[Symbol.asyncIterator]();
    const first = await upload.next();
    const config = first.done ? undefined : first.value.config;
    if (!config) {
      throw invalidTranscription('The upload must begin with its config message.', null);
    }
    const model = this.models.find(config.model);
    if (!model) throw modelNotServed(config.model, 'transcription');
    ctx.span.setAttribute(GEN_AI.requestModel, config.model);
    ctx.span.setAttribute(GEN_AI.responseModel, model.spec.id);
    const checked = checkTranscription(model, config);
    // Before the upload is decoded: a refused request costs neither ffmpeg nor memory.
    const leave = model.admission.enter();
    const decoding = model.decoding.enter();
    try {
      const audio = await decodeAudio(audioChunks(upload), {
        sampleRate: WHISPER_SAMPLE_RATE,
        maxSeconds: model.options.max_audio_seconds,
        timeoutMs: model.options.decode_timeout_ms,
        signal: ctx.signal,
      }).catch((error: unknown) => {
        if (error instanceof AudioDecodeError) throw invalidTranscription(error.message, 'file');
        throw error;
      });
      if (audio.length === 0) {
        throw invalidTranscription(
          `The file holds no audio. Supported formats: ${TRANSCRIPTION_INPUT_FORMATS.join(', ')}.`,
          'file',
        );
      }
      this.models.countAudio(model, audio.length / WHISPER_SAMPLE_RATE);
      await decoding.arrive();

      const deltas = new SegmentQueue();
      const running = inModelRunSpan(ctx.span, 'transcription', model.spec.id, async (span) => {
        const result = await model.whisper.transcribe(
          { ...checked, audio },
          {
            signal: ctx.signal,
            deadline: ctx.deadline,
            onSegment: config.stream ? (segment) => deltas.push(segment) : undefined,
          },
        );
        span.setAttribute(GEN_AI.outputTokens, result.outputTokens);
        return result;
      });
      running.then(
        () => deltas.end(),
        () => deltas.end(),
      );
      for await (const delta of deltas) yield { delta };
      const result = await running;
      ctx.span.setAttribute(GEN_AI.outputTokens, result.outputTokens);
      yield { done: responseOf(result, checked.task) };
    } finally {
      decoding.leave();
      leave();
    }
  }
}

/** The audio bytes of the messages after the config. */
async function* audioChunks(
  upload: AsyncIterator<TranscribeRequest__Output>,
): AsyncIterable<Uint8Array> {
  for (let next = await upload.next(); !next.done; next = await upload.next()) {
    const { audio, config } = next.value;
    if (config) throw invalidTranscription('Only the first message may carry a config.', null);
    if (audio && audio.length > 0) yield audio;
  }
}

/**
 * The segments' text, in order, as the engine finishes them: an async iterable the handler
 * drains while the job runs. The first delta has no leading space, so the deltas joined are
 * the final text.
 */
class SegmentQueue implements AsyncIterable<TranscriptDelta> {
  private readonly texts: TranscriptDelta[] = [];
  private ended = false;
  private started = false;
  private wake: (() => void) | null = null;

  push(segment: TranscriptSegment): void {
    const text = this.started ? segment.text : segment.text.trimStart();
    if (text === '') return;
    this.started = true;
    this.texts.push({ text, audio_end: segment.end });
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TranscriptDelta> {
    for (;;) {
      const text = this.texts.shift();
      if (text !== undefined) {
        yield text;
      } else if (this.ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

function responseOf(result: TranscriptionResult, task: string): TranscribeResponse {
  return {
    text: result.text,
    language: result.language,
    duration: result.duration,
    task,
    segments: result.segments.map(segmentOf),
    words: result.words ? [...result.words] : [],
    usage: {
      prompt_tokens: 0,
      completion_tokens: result.outputTokens,
      total_tokens: result.outputTokens,
    },
  };
}

function segmentOf(segment: TranscriptSegment): Segment {
  return {
    id: segment.id,
    seek: segment.seek,
    start: segment.start,
    end: segment.end,
    text: segment.text,
    tokens: [...segment.tokens],
    temperature: segment.temperature,
    avg_logprob: segment.avgLogprob,
    compression_ratio: segment.compressionRatio,
    no_speech_prob: segment.noSpeechProb,
  };
}
