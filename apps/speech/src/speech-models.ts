// Loads, warms and looks up the speech models the models file lists for this service. A model is
// its voice map: each distinct voice file it names is one PiperVoice (its own worker pool), and
// each name of the map a speaker of one of them. A speaker the file does not have stops the
// service, naming it.
import { basename, join } from 'node:path';
import { Injectable } from '@nestjs/common';
import type { ModelSpec } from '@tessera/models';
import { ServedModels, type ModelToOpen } from '@tessera/service';
import { PiperVoice, type PiperVoiceConfig } from '@tessera/tts';
import { Gauge } from 'prom-client';
import { SpeechModelOptionsSchema, type SpeechModelOptions } from './speech-model.options';
import { SynthesisBacklog } from './synthesis.backlog';
import { resolveVoiceMap, voiceFileOf, voiceNames, type MappedVoice } from './voice.map';

export interface SpeechModel {
  readonly spec: ModelSpec;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`), not the load time. */
  readonly created: number;
  /** Name → voice and speaker. */
  readonly voiceMap: ReadonlyMap<string, MappedVoice>;
  /** The names, sorted (ListModels' `voices`). */
  readonly voices: readonly string[];
  readonly maxPhonemesPerRun: number;
  /** The work each voice file has taken on, and its rate (one per PiperVoice: its worker pool). */
  readonly backlogs: ReadonlyMap<PiperVoice, SynthesisBacklog>;
}

@Injectable()
export class SpeechModels extends ServedModels<SpeechModel, typeof SpeechModelOptionsSchema> {
  protected readonly capability = 'speech';
  protected readonly optionsSchema = SpeechModelOptionsSchema;
  private readonly voiceRuns = this.modelCounter(
    'tessera_speech_voice_runs_total',
    'Voice model runs (one per sentence, or per part of an over-long one)',
  );
  // What each voice file holds and its rate, against max_backlog_seconds (read when scraped).
  private readonly backlogGauges = [
    this.backlogGauge(
      'tessera_speech_backlog_characters',
      'Characters of input a voice file has taken on and not yet synthesised',
      (backlog) => backlog.queuedChars,
    ),
    this.backlogGauge(
      'tessera_speech_characters_per_second',
      "A voice file's measured synthesis rate (its start value until a run is measured)",
      (backlog) => backlog.charsPerSecond,
    ),
  ];

  /** Counts one voice run of `model` (a cancelled request stops adding to it). */
  countRun(model: SpeechModel): void {
    this.voiceRuns.inc({ model: model.spec.id });
  }

  protected async open(entry: ModelToOpen<SpeechModelOptions>): Promise<SpeechModel> {
    const { spec, options, modelDir, created } = entry;
    const where = `speech model '${spec.id}'`;
    // The voice files besides the entry's own are pulled as its companions (model-companions.ts).
    const directories = new Map<string, string>();
    if (spec.file !== undefined) directories.set(spec.file, modelDir);
    for (const companion of await this.resolveCompanions(spec)) {
      if (companion.spec.file !== undefined && !directories.has(companion.spec.file)) {
        directories.set(companion.spec.file, companion.modelDir);
      }
    }
    const voices = new Map<string, PiperVoice>();
    for (const entry of Object.values(options.voices)) {
      const file = voiceFileOf(entry, spec.file);
      if (voices.has(file)) continue;
      const directory = directories.get(file) ?? modelDir;
      const voice = await PiperVoice.load({
        onnxPath: join(directory, file),
        modelDir: directory,
        runtime: options,
        inference: noiseScalesOf(options),
        onWarning: (message) => this.logger.warn(message),
      }).catch((error: Error) => {
        throw new Error(`${where}: ${error.message}`);
      });
      voices.set(file, this.closesWithService(voice));
    }
    const voiceMap = resolveVoiceMap(options.voices, spec.file, (file) => voices.get(file)!, where);
    for (const voice of voices.values()) await voice.warmup();
    const backlogs = new Map(
      [...voices.values()].map((voice) => [
        voice,
        new SynthesisBacklog({
          maxSeconds: options.max_backlog_seconds,
          initialCharsPerSecond: options.initial_chars_per_second,
          parallelRuns: options.workers,
        }),
      ]),
    );
    const names = voiceNames(voiceMap);
    this.logger.log(`loaded ${spec.id}: ${voices.size} voice file(s), voices ${names.join(', ')}`);
    return {
      spec,
      created,
      voiceMap,
      voices: names,
      maxPhonemesPerRun: options.max_phonemes_per_run,
      backlogs,
    };
  }

  /** A gauge per model and voice file of what `read` says of the file's backlog. */
  private backlogGauge(
    name: string,
    help: string,
    read: (backlog: SynthesisBacklog) => number,
  ): Gauge<'model' | 'file'> {
    const models = () => this.all();
    return new Gauge({
      name,
      help,
      labelNames: ['model', 'file'],
      registers: [this.metrics],
      collect(this: Gauge<'model' | 'file'>) {
        this.reset();
        for (const model of models()) {
          for (const [voice, backlog] of model.backlogs) {
            this.set({ model: model.spec.id, file: basename(voice.onnxPath) }, read(backlog));
          }
        }
      },
    });
  }
}

/** The noise scales the entry sets, to replace the voice config's (absent ones stay). */
function noiseScalesOf(options: SpeechModelOptions): Partial<PiperVoiceConfig['inference']> {
  return {
    ...(options.noise_scale !== undefined && { noise_scale: options.noise_scale }),
    ...(options.noise_w !== undefined && { noise_w: options.noise_w }),
  };
}
