// Piper's phonemes from Node: espeak-ng 1.52 as WebAssembly (see tools/espeak-wasm/) in a
// worker of the shared runtime. Chosen over the npm packages that wrap espeak-ng (phonemizer,
// @echogarden/espeak-ng-emscripten) and over Debian's espeak-ng: those are other espeak-ng
// versions (Debian 12 has 1.51) and expose only espeak_TextToPhonemes, which drops the clause
// punctuation Piper keeps; measured on our 30-sentence corpus they differ from piper-tts on
// numbers ("forty"), linking "ʲ" and every terminator. This build matches piper-tts exactly.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OrtWorkerPool, engineModule, type WorkBounds } from '@tessera/runtime';
import type { EspeakEngineTypes } from './espeak.engine';
import type { Phonemizer } from './phonemizer.contract';

const ESPEAK_ENGINE = engineModule<EspeakEngineTypes>(__dirname, 'espeak.engine');

/** The committed build (libs/tts/espeak/), found from the sources or from dist/. */
export function defaultEspeakDirectory(): string {
  const relative = join('libs', 'tts', 'espeak');
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, relative);
    if (existsSync(join(candidate, 'espeak-ng.wasm'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`espeak-ng build not found (looked for ${relative} above ${__dirname})`);
}

export class EspeakPhonemizer implements Phonemizer {
  private constructor(private readonly pool: OrtWorkerPool<EspeakEngineTypes>) {}

  /** One worker: phonemising is short work next to synthesis, which needs the cores. */
  static async start(directory: string = defaultEspeakDirectory()): Promise<EspeakPhonemizer> {
    const pool = new OrtWorkerPool({
      engine: ESPEAK_ENGINE,
      modelDir: directory,
      engineOptions: {},
      runtime: { workers: 1, intra_op_threads: 1 },
    });
    await pool.start();
    return new EspeakPhonemizer(pool);
  }

  phonemize(text: string, voice: string, bounds: WorkBounds = {}): Promise<string[][]> {
    return this.pool.execute({ text, voice }, bounds);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
