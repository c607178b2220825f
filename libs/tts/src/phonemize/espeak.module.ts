// espeak-ng 1.52 compiled to WebAssembly (tools/espeak-wasm/build.sh), loaded with Node's WASI so
// espeak-ng reads its own data files from a preopened directory. Synchronous and single-threaded
// like the C library it wraps: one instance per worker thread (espeak.engine.ts), never on the
// service's event loop.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WASI } from 'node:wasi';

/** One clause as espeak-ng translates it: IPA phonemes and the raw clause-terminator flags. */
export interface EspeakClause {
  readonly phonemes: string;
  readonly terminator: number;
}

interface EspeakExports {
  readonly memory: WebAssembly.Memory;
  tessera_alloc(size: number): number;
  tessera_free(pointer: number): void;
  tessera_initialize(dataPath: number): number;
  tessera_set_voice(name: number): number;
  tessera_begin(text: number): void;
  tessera_next_clause(): number;
  tessera_terminator(): number;
}

/** Where the data directory is mounted inside the module (espeak-ng reads <it>/espeak-ng-data). */
const GUEST_ROOT = '/espeak';

export class EspeakModule {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private voice: string | undefined;

  private constructor(private readonly exports: EspeakExports) {}

  /** `directory` holds `espeak-ng.wasm` and `espeak-ng-data/`. */
  static async load(directory: string): Promise<EspeakModule> {
    const wasi = new WASI({ version: 'preview1', preopens: { [GUEST_ROOT]: directory } });
    const compiled = await WebAssembly.compile(readFileSync(join(directory, 'espeak-ng.wasm')));
    const instance = await WebAssembly.instantiate(compiled, wasi.getImportObject());
    // A WASI "reactor": no main(), only exports; initialize() runs the C constructors.
    wasi.initialize(instance);
    const module = new EspeakModule(instance.exports as unknown as EspeakExports);
    if (module.withString(GUEST_ROOT, (path) => module.exports.tessera_initialize(path)) !== 0) {
      throw new Error(`espeak-ng could not load its data from ${directory}/espeak-ng-data`);
    }
    return module;
  }

  /** Every clause of `text` in `voice`, in order (espeak-ng's own clause splitting). */
  clauses(text: string, voice: string): EspeakClause[] {
    this.selectVoice(voice);
    const clauses: EspeakClause[] = [];
    // tessera_begin copies the text, so the buffer is freed right away.
    this.withString(text, (pointer) => this.exports.tessera_begin(pointer));
    for (;;) {
      const phonemes = this.exports.tessera_next_clause();
      if (phonemes === 0) break;
      clauses.push({
        phonemes: this.readString(phonemes),
        terminator: this.exports.tessera_terminator(),
      });
    }
    return clauses;
  }

  private selectVoice(voice: string): void {
    if (voice === this.voice) return;
    if (this.withString(voice, (name) => this.exports.tessera_set_voice(name)) !== 0) {
      throw new EspeakVoiceError(voice);
    }
    this.voice = voice;
  }

  /** Copies `value` NUL-terminated into the module's memory for the duration of `use`. */
  private withString<R>(value: string, use: (pointer: number) => R): R {
    const bytes = this.encoder.encode(value);
    const pointer = this.exports.tessera_alloc(bytes.length + 1);
    if (pointer === 0) throw new Error('espeak-ng: out of memory');
    try {
      const memory = new Uint8Array(this.exports.memory.buffer, pointer, bytes.length + 1);
      memory.set(bytes);
      memory[bytes.length] = 0;
      return use(pointer);
    } finally {
      this.exports.tessera_free(pointer);
    }
  }

  private readString(pointer: number): string {
    const memory = new Uint8Array(this.exports.memory.buffer);
    const end = memory.indexOf(0, pointer);
    return this.decoder.decode(memory.subarray(pointer, end < 0 ? memory.length : end));
  }
}

/** The voice is not one espeak-ng knows (or its language's dictionary was not built in). */
export class EspeakVoiceError extends Error {
  constructor(readonly voice: string) {
    super(`espeak-ng has no voice "${voice}" (see tools/espeak-wasm/build.sh for the languages)`);
    this.name = 'EspeakVoiceError';
  }
}
