// Loads XGrammar's WebAssembly build (@mlc-ai/web-xgrammar) into this CommonJS process. The
// package is marked ESM but its bundle is UMD, and its Emscripten glue reaches for `require`
// and `__filename` (to read its WASM blob): loaded as ESM those are missing, and the UMD fallback
// would set `globalThis.xgrammar`. Compiling the file as a CommonJS module of its own (Node's
// Module#_compile, what `require` does for a CommonJS package) gives it both, takes its exports
// from `module.exports`, and touches no global. Works the same under ts-jest, in compiled dist/
// and inside worker threads.
//
// Each call loads a NEW instance with its own WASM heap. That matters because XGrammar reports a
// schema it cannot convert (bad JSON, an unknown type, an unresolvable $ref, a bad regex) with a
// C++ check failure, which in this build prints "[FATAL] file:line: message" and aborts the
// Emscripten runtime: the instance that saw it is not to be trusted afterwards. The printed line
// is the only description of the problem, so the module's `console` is a local one that keeps it.
import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type * as XGrammar from '@mlc-ai/web-xgrammar';

export type XGrammarModule = typeof XGrammar;

export interface XGrammarInstance {
  readonly xgrammar: XGrammarModule;
  /** The message of the last "[FATAL]" check failure this instance printed, if any. */
  lastFailure(): string | undefined;
  /**
   * Bytes of this instance's WASM heap (0 before its first call). It only ever grows: freed
   * grammars leave it at its peak, which is why grammar workers are recycled past a bound.
   */
  heapBytes(): number;
}

interface CompilableModule {
  filename: string;
  paths: string[];
  exports: unknown;
  console?: unknown;
  heapBytes?: () => number;
  _compile(source: string, filename: string): void;
}

type ModuleConstructor = (new (id: string, parent: null) => CompilableModule) & {
  _nodeModulePaths(dir: string): string[];
};

/**
 * Where the bundle keeps its Emscripten module (private to it): the line that creates it also
 * hands the module's heap size out, through the CommonJS `module` the bundle is compiled in.
 */
const BINDING_CREATED = 'binding = await Module();';
const EXPOSE_HEAP = `${BINDING_CREATED} module.heapBytes = () => binding.HEAP8.byteLength;`;

const FATAL = /^\[FATAL\] [^:]*:\d+: (?:Check failed: \(.*?\) is false: )?(.*)$/;

let source: { file: string; text: string } | undefined;

/** A fresh instance; its WASM heap is created on the first call into it. */
export function loadXGrammar(): XGrammarInstance {
  if (!source) {
    const file = require.resolve('@mlc-ai/web-xgrammar/lib/index.js');
    // Shadows the global console for the bundle only (same line, so positions stay right).
    const text = readFileSync(file, 'utf8').replace(BINDING_CREATED, EXPOSE_HEAP);
    source = { file, text: `var console = module.console;${text}` };
  }
  let failure: string | undefined;
  const captured = {
    log: () => undefined,
    warn: () => undefined,
    error: (line: unknown) => {
      const match = FATAL.exec(String(line));
      if (match) failure = match[1].trim();
    },
  };
  const CommonJsModule = Module as unknown as ModuleConstructor;
  const module = new CommonJsModule(source.file, null);
  module.filename = source.file;
  module.paths = CommonJsModule._nodeModulePaths(dirname(source.file));
  module.console = captured;
  module._compile(source.text, source.file);
  return {
    xgrammar: module.exports as XGrammarModule,
    lastFailure: () => failure,
    heapBytes: () => module.heapBytes?.() ?? 0,
  };
}
