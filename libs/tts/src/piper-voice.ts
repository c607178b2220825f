// A Piper voice (one `<voice>.onnx` + `<voice>.onnx.json`) loaded into @tessera/runtime's worker
// pool: its config, validated on the main thread; its graph checked to have Piper's signature;
// one voice run per job, off the event loop. Several names of a model's voice map may share one
// PiperVoice (one speaker each of a multi-speaker voice).
import {
  OrtWorkerPool,
  engineModule,
  type OrtJobOptions,
  type RuntimeOptions,
} from '@tessera/runtime';
import type { PiperEngineTypes } from './engine/piper.protocol';
import { readPiperVoiceConfig, type PiperVoiceConfig } from './voice/piper-voice.config';

export interface PiperVoiceOptions {
  /** The voice graph, absolute; its config is `<onnxPath>.json`. */
  readonly onnxPath: string;
  readonly modelDir: string;
  readonly runtime?: Partial<RuntimeOptions>;
  /** Instead of the config's `inference` scales (e.g. noise 0, to compare with piper-tts). */
  readonly inference?: Partial<PiperVoiceConfig['inference']>;
  readonly onWarning?: (message: string) => void;
}

/** How a run is spoken: the speaker and the pace. */
export interface RunVoicing {
  /** `sid` of a multi-speaker voice (see speakerIdOf); ignored for a single speaker. */
  readonly speakerId?: number;
  /** OpenAI's speed (0.25–4): the voice's length scale is divided by it. */
  readonly speed: number;
}

const REQUIRED_INPUTS = ['input', 'input_lengths', 'scales'];

export class PiperVoice {
  private constructor(
    readonly onnxPath: string,
    readonly config: PiperVoiceConfig,
    private readonly pool: OrtWorkerPool<PiperEngineTypes>,
  ) {}

  static async load(options: PiperVoiceOptions): Promise<PiperVoice> {
    const read = await readPiperVoiceConfig(options.onnxPath);
    const config = { ...read, inference: { ...read.inference, ...options.inference } };
    const pool = new OrtWorkerPool<PiperEngineTypes>({
      engine: engineModule<PiperEngineTypes>(`${__dirname}/engine`, 'piper.engine'),
      modelDir: options.modelDir,
      engineOptions: { onnxFile: options.onnxPath },
      runtime: options.runtime,
      onWarning: options.onWarning,
    });
    await pool.start();
    try {
      checkSignature(options.onnxPath, config, pool.info.inputNames);
      return new PiperVoice(options.onnxPath, config, pool);
    } catch (error) {
      await pool.close();
      throw error;
    }
  }

  /** Output samples per second of the voice (before any resampling). */
  get sampleRate(): number {
    return this.config.audio.sample_rate;
  }

  /** One run's audio (int16 at `sampleRate`), as piper-tts makes a sentence's. */
  async synthesize(
    ids: readonly number[],
    voicing: RunVoicing,
    options: OrtJobOptions = {},
  ): Promise<Int16Array> {
    const { noise_scale, length_scale, noise_w } = this.config.inference;
    const result = await this.pool.execute(
      {
        ids,
        speakerId: this.config.num_speakers > 1 ? voicing.speakerId : undefined,
        scales: [noise_scale, length_scale / voicing.speed, noise_w],
      },
      options,
    );
    return result.pcm;
  }

  /** Runs a short input on every worker, so the first request does not pay ORT's first run. */
  async warmup(): Promise<void> {
    const map = this.config.phoneme_id_map;
    const ids = [...map['^'], ...map['_'], ...map['$']];
    const speakerId = this.config.num_speakers > 1 ? this.config.default_speaker_id : undefined;
    const { noise_scale, length_scale, noise_w } = this.config.inference;
    await Promise.all(
      Array.from({ length: this.pool.size }, (_, worker) =>
        this.pool.execute(
          { ids, speakerId, scales: [noise_scale, length_scale, noise_w] },
          { worker },
        ),
      ),
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Piper's export signature (train/export_onnx.py): `sid` exactly when multi-speaker. */
function checkSignature(onnxPath: string, config: PiperVoiceConfig, inputs: readonly string[]) {
  const multi = config.num_speakers > 1;
  const expected = multi ? [...REQUIRED_INPUTS, 'sid'] : REQUIRED_INPUTS;
  const missing = expected.filter((name) => !inputs.includes(name));
  const unknown = inputs.filter((name) => !expected.includes(name));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(
      `${onnxPath} is not a Piper voice with ${config.num_speakers} speaker(s): inputs ` +
        `[${inputs.join(', ')}], expected [${expected.join(', ')}]`,
    );
  }
}
