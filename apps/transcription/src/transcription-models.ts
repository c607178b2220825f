// Loads, warms and looks up the Whisper models the models file lists for this service, and
// counts the audio they transcribe.
import { Injectable } from '@nestjs/common';
import { WHISPER_SAMPLE_RATE, WhisperModel } from '@tessera/asr';
import { spawnHelper } from '@tessera/audio';
import type { ModelSpec } from '@tessera/models';
import { AdmissionGate, Convoy } from '@tessera/runtime';
import { ServedModels, type ModelToOpen } from '@tessera/service';
import {
  TranscriptionModelOptionsSchema,
  type TranscriptionModelOptions,
} from './transcription-model.options';

export interface TranscriptionModel {
  readonly spec: ModelSpec;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`), not the load time. */
  readonly created: number;
  readonly whisper: WhisperModel;
  readonly options: TranscriptionModelOptions;
  /** Bounds the transcriptions held at once, decoding included (see max_queued_requests). */
  readonly admission: AdmissionGate;
  /**
   * Uploads being decoded: one decoded waits (batch_gather_ms at most) for those still decoding,
   * so that concurrent requests reach the worker together and their windows share encoder runs.
   */
  readonly decoding: Convoy;
}

@Injectable()
export class TranscriptionModels extends ServedModels<
  TranscriptionModel,
  typeof TranscriptionModelOptionsSchema
> {
  protected readonly capability = 'transcription';
  protected readonly optionsSchema = TranscriptionModelOptionsSchema;
  private readonly audioSeconds = this.modelCounter(
    'tessera_transcription_audio_seconds_total',
    'Seconds of decoded input audio handed to the model',
  );

  countAudio(model: TranscriptionModel, seconds: number): void {
    this.audioSeconds.inc({ model: model.spec.id }, seconds);
  }

  override load(): Promise<void> {
    // The decoder's ffmpeg children are started by the spawn helper: fork it now, while this
    // process is small and no request waits (spawn.helper.ts).
    spawnHelper().start();
    return super.load();
  }

  override async close(): Promise<void> {
    await super.close();
    // The ffmpeg spawn helper (started at load) exits with its children.
    await spawnHelper().close();
  }

  protected async open(entry: ModelToOpen<TranscriptionModelOptions>): Promise<TranscriptionModel> {
    const { spec, options, created, modelDir } = entry;
    const whisper = this.closesWithService(
      await WhisperModel.load({
        modelDir,
        runtime: options,
        options,
        onWarning: (message) => this.logger.warn(message),
      }).catch((error: Error) => {
        throw new Error(`transcription model '${spec.id}': ${error.message}`);
      }),
    );
    // One real run (a second of silence) so the first request pays no session warm-up. At
    // temperature 1, the last of the fallback ladder, the window is decoded once: from 0 a
    // model that loops on silence (a random-weight fixture does) decoded it six times, which
    // made a (re)start take minutes.
    await whisper.transcribe({
      audio: new Float32Array(WHISPER_SAMPLE_RATE),
      task: 'transcribe',
      language: 'en',
      temperature: 1,
      wordTimestamps: false,
    });
    const { multilingual, wordTimestamps } = whisper.info;
    this.logger.log(
      `loaded ${spec.id}: ${multilingual ? 'multilingual' : 'English-only'}, ` +
        `word timestamps ${wordTimestamps ? 'available' : 'unavailable'}`,
    );
    const running = options.workers * options.concurrency;
    const admission = new AdmissionGate(running + options.max_queued_requests, 'transcriptions');
    const decoding = new Convoy(options.batch_gather_ms);
    return { spec, created, whisper, options, admission, decoding };
  }
}
