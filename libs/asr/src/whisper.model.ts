// A Whisper model (transformers.js ONNX layout) loaded into @tessera/runtime's worker pool: the
// main thread only moves the job's audio to a worker and relays segments; features, encoder and
// decoder all run there (see engine/whisper.engine.ts).
import { OrtWorkerPool, engineModule, type RuntimeOptions } from '@tessera/runtime';
import type { WhisperEngineResult, WhisperEngineTypes } from './engine/whisper.protocol';
import type {
  TranscriptionJob,
  TranscriptionResult,
  TranscriptSegment,
  WhisperModelInfo,
} from './transcription.contract';
import { WHISPER_SAMPLE_RATE } from './transcription.contract';
import { WhisperModelOptionsSchema, type WhisperModelOptions } from './whisper-model.options';

export interface WhisperModelLoad {
  readonly modelDir: string;
  /** The model's runtime options (workers, sessions, queue). */
  readonly runtime?: Partial<RuntimeOptions>;
  /** The engine's own (concurrency, batch sizes); defaults when left out. */
  readonly options?: Partial<WhisperModelOptions>;
  readonly onWarning?: (message: string) => void;
}

export interface TranscribeOptions {
  readonly signal?: AbortSignal;
  /** Epoch milliseconds. */
  readonly deadline?: number;
  /** Each segment as soon as its window is final, in order. */
  readonly onSegment?: (segment: TranscriptSegment) => void;
}

export class WhisperModel {
  private constructor(
    private readonly pool: OrtWorkerPool<WhisperEngineTypes>,
    readonly info: WhisperModelInfo,
  ) {}

  static async load(load: WhisperModelLoad): Promise<WhisperModel> {
    const options = WhisperModelOptionsSchema.parse(load.options ?? {});
    const pool = new OrtWorkerPool<WhisperEngineTypes>({
      engine: engineModule<WhisperEngineTypes>(`${__dirname}/engine`, 'whisper.engine'),
      modelDir: load.modelDir,
      engineOptions: {
        maxEncoderBatch: options.max_encoder_batch,
        maxDecoderBatch: options.max_decoder_batch,
        temperatureFallback: options.temperature_fallback,
        conditionOnPreviousText: options.condition_on_previous_text,
        batchGatherMs: options.batch_gather_ms,
      },
      runtime: load.runtime,
      concurrency: options.concurrency,
      onWarning: load.onWarning,
    });
    await pool.start();
    const { multilingual, languages, wordTimestamps } = pool.info;
    return new WhisperModel(pool, { multilingual, languages, wordTimestamps });
  }

  /**
   * The whole job, in one worker. The job's audio buffer is moved to it: the caller must not use
   * `job.audio` afterwards. Jobs the service checked (checkTranscriptionAsk) only.
   */
  async transcribe(
    job: TranscriptionJob,
    options: TranscribeOptions = {},
  ): Promise<TranscriptionResult> {
    const duration = job.audio.length / WHISPER_SAMPLE_RATE;
    const audio = job.audio;
    const request: TranscriptionJob = {
      audio,
      task: job.task,
      language: job.language,
      prompt: job.prompt,
      temperature: job.temperature,
      wordTimestamps: job.wordTimestamps,
    };
    const transfer =
      audio.byteOffset === 0 && audio.byteLength === audio.buffer.byteLength
        ? [audio.buffer as ArrayBuffer]
        : [];
    const stream = this.pool.stream(request, {
      signal: options.signal,
      deadline: options.deadline,
      transfer,
    });
    let result: WhisperEngineResult | undefined;
    for await (const reply of stream) {
      if ('segment' in reply) options.onSegment?.(reply.segment);
      else result = reply.transcript;
    }
    if (!result) throw new Error('the Whisper engine ended a job without its transcript');
    return {
      text: result.segments
        .map((segment) => segment.text)
        .join('')
        .trim(),
      language: result.language,
      duration,
      segments: result.segments,
      words: result.words,
      outputTokens: result.outputTokens,
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
