// Loads, warms and looks up the speech models the models file lists for this service. A model is
// its voice map: each distinct voice file it names is one PiperVoice (its own worker pool), and
// each name of the map a speaker of one of them. A speaker the file does not have stops the
// service, naming it.
import { basename, dirname, join, resolve } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import { ModelStore } from '@tessera/models/store';
import { METRICS_REGISTRY } from '@tessera/observability';
import { companionSpecs, type ModelSpec } from '@tessera/models';
import { SERVICE_CONFIG, ServedModels } from '@tessera/service';
import { PiperVoice } from '@tessera/tts';
import { Counter, Gauge, type Registry } from 'prom-client';
import { SpeechModelOptionsSchema } from './speech-model.options';
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
export class SpeechModels {
  private readonly logger = new Logger(SpeechModels.name);
  private readonly served = new ServedModels<SpeechModel>('speech');
  private readonly opened: PiperVoice[] = [];
  private readonly voiceRuns: Counter<'model'>;

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.voiceRuns = new Counter({
      name: 'tessera_speech_voice_runs_total',
      help: 'Voice model runs (one per sentence, or per part of an over-long one)',
      labelNames: ['model'],
      registers: [registry],
    });
    const served = this.served;
    // Read when scraped: what each voice file holds and its rate, against max_backlog_seconds.
    const eachBacklog = (read: (backlog: SynthesisBacklog) => number) =>
      function (this: Gauge<'model' | 'file'>) {
        this.reset();
        for (const model of served.all()) {
          for (const [voice, backlog] of model.backlogs) {
            this.set({ model: model.spec.id, file: basename(voice.onnxPath) }, read(backlog));
          }
        }
      };
    new Gauge({
      name: 'tessera_speech_backlog_characters',
      help: 'Characters of input a voice file has taken on and not yet synthesised',
      labelNames: ['model', 'file'],
      registers: [registry],
      collect: eachBacklog((backlog) => backlog.queuedChars),
    });
    new Gauge({
      name: 'tessera_speech_characters_per_second',
      help: "A voice file's measured synthesis rate (its start value until a run is measured)",
      labelNames: ['model', 'file'],
      registers: [registry],
      collect: eachBacklog((backlog) => backlog.charsPerSecond),
    });
  }

  /** Counts one voice run of `model` (a cancelled request stops adding to it). */
  countRun(model: SpeechModel): void {
    this.voiceRuns.inc({ model: model.spec.id });
  }

  /** Resolves every voice file locally (never downloads), loads it into workers and warms it. */
  load(): Promise<void> {
    const store = new ModelStore();
    const modelsDir = dirname(resolve(this.config.modelsFile));
    return this.served.load(
      this.config.modelsFile,
      SpeechModelOptionsSchema,
      async ({ spec, options, modelDir, created }) => {
        const where = `speech model '${spec.id}'`;
        // The voice files besides the entry's own are pulled as its companions (model-companions.ts).
        const directories = new Map<string, string>();
        if (spec.file !== undefined) directories.set(spec.file, modelDir);
        for (const companion of companionSpecs(spec, modelsDir)) {
          if (companion.file !== undefined && !directories.has(companion.file)) {
            directories.set(companion.file, await store.resolve(companion));
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
            onWarning: (message) => this.logger.warn(message),
          }).catch((error: Error) => {
            throw new Error(`${where}: ${error.message}`);
          });
          this.opened.push(voice);
          voices.set(file, voice);
        }
        const voiceMap = resolveVoiceMap(
          options.voices,
          spec.file,
          (file) => voices.get(file)!,
          where,
        );
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
        this.logger.log(
          `loaded ${spec.id}: ${voices.size} voice file(s), voices ${names.join(', ')}`,
        );
        return {
          spec,
          created,
          voiceMap,
          voices: names,
          maxPhonemesPerRun: options.max_phonemes_per_run,
          backlogs,
        };
      },
    );
  }

  /** The loaded model a request names, by id or alias. */
  find(name: string): SpeechModel | undefined {
    return this.served.find(name);
  }

  all(): SpeechModel[] {
    return this.served.all();
  }

  async close(): Promise<void> {
    for (const voice of this.opened) await voice.close();
  }
}
