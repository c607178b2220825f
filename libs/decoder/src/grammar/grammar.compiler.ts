// The worker's grammar engine: XGrammar with this model's vocabulary (built once per worker) and
// a bounded LRU of compiled grammars keyed by the exact constraint, so a repeated schema is
// compiled once. Each job gets one matcher per choice (see grammar.constraint.ts).
//
// Compile options, for every JSON grammar: no free whitespace (one line, json.dumps' ", " and
// ": " separators) — with any_whitespace a weak or random model can emit blanks until max_tokens
// — and XGrammar's strict mode, so objects carry no properties the schema does not name (the
// output still validates: it only leaves out what the schema leaves open). Every JSON Schema is
// first rewritten into forms XGrammar compiles exactly (json-schema.rewrite.ts).
import type {
  CompiledGrammar,
  GrammarCompiler,
  GrammarMatcher,
  TokenizerInfo,
} from '@mlc-ai/web-xgrammar';
import { GrammarCompileError } from '../decoder.errors';
import type { OutputConstraint } from '../decoder.protocol';
import type {
  ConstraintCompiler,
  GrammarCompileInfo,
  SequenceConstraint,
} from './constraint.contract';
import { GrammarConstraint } from './grammar.constraint';
import { jsonSchemaEbnf, rewriteStructuralTag } from './json-schema.rewrite';
import type { EncodedVocab } from './tokenizer-vocab.reader';
import { Utf8Vocabulary } from './utf8.guard';
import { loadXGrammar, type XGrammarInstance } from './xgrammar.loader';

/** Compiled grammars kept per worker (each holds token masks for its states: ~KB to a few MB). */
export const GRAMMAR_CACHE_SIZE = 64;

/** One line, no optional whitespace (XGrammar's indent −1). */
const NO_INDENT = -1;
/** OpenAI's JSON mode: any object. Not strict: its properties are free. */
const ANY_OBJECT = '{"type":"object"}';

export interface GrammarCompilerStats {
  readonly compilations: number;
  readonly cacheHits: number;
  readonly compileMs: number;
  readonly cached: number;
}

export interface GrammarVocabulary {
  readonly vocab: EncodedVocab;
  /** Rows of the model's logits (may exceed the tokenizer's vocabulary). */
  readonly vocabSize: number;
  /** The model's end-of-sequence ids: what a complete value allows next. */
  readonly eosTokenIds: readonly number[];
  /** Each token's exact bytes, for the UTF-8 guard (utf8.guard.ts); absent: no guard. */
  readonly tokenBytes?: (tokenId: number) => readonly number[];
}

export class XGrammarCompiler implements ConstraintCompiler {
  private readonly grammars = new Map<string, Promise<CompiledGrammar>>();
  private compilations = 0;
  private cacheHits = 0;
  private compileMs = 0;
  /**
   * A separate instance that converts each new schema first: a schema XGrammar rejects aborts the
   * instance that converted it, so that is never the one holding the vocabulary and matchers.
   */
  private checker?: XGrammarInstance;

  private constructor(
    private readonly instance: XGrammarInstance,
    private readonly tokenizerInfo: TokenizerInfo,
    private readonly compiler: GrammarCompiler,
    private readonly capacity: number,
    private readonly utf8?: Utf8Vocabulary,
  ) {}

  static async create(
    { vocab, vocabSize, eosTokenIds, tokenBytes }: GrammarVocabulary,
    capacity = GRAMMAR_CACHE_SIZE,
  ): Promise<XGrammarCompiler> {
    const instance = loadXGrammar();
    const { TokenizerInfo, GrammarCompiler } = instance.xgrammar;
    const info = await TokenizerInfo.createTokenizerInfo(
      vocab.tokens,
      vocab.vocabType,
      vocab.prependSpace,
      Math.max(vocabSize, vocab.tokens.length),
      [...eosTokenIds],
    );
    // XGrammar's own cache is unbounded: this class keeps a bounded one instead.
    const compiler = await GrammarCompiler.createGrammarCompiler(info, false);
    const utf8 = tokenBytes && Utf8Vocabulary.fromTokens(vocab.tokens.length, tokenBytes);
    return new XGrammarCompiler(instance, info, compiler, capacity, utf8);
  }

  get stats(): GrammarCompilerStats {
    const { compilations, cacheHits, compileMs } = this;
    return { compilations, cacheHits, compileMs, cached: this.grammars.size };
  }

  /** Bytes of WASM heap held by this engine's XGrammar instances (they never shrink). */
  get heapBytes(): number {
    return this.instance.heapBytes() + (this.checker?.heapBytes() ?? 0);
  }

  async constraints(
    constraint: OutputConstraint,
    count: number,
  ): Promise<{ sequences: SequenceConstraint[]; info: GrammarCompileInfo }> {
    const { matchers, info } = await this.matchers(constraint, count);
    const sequences = matchers.map((matcher) => new GrammarConstraint(matcher, this.utf8?.guard()));
    return { sequences, info };
  }

  /** `count` fresh XGrammar matchers for `constraint` (the caller disposes them). */
  async matchers(
    constraint: OutputConstraint,
    count: number,
  ): Promise<{ matchers: GrammarMatcher[]; info: GrammarCompileInfo }> {
    const { grammar, info } = await this.compile(constraint);
    const { GrammarMatcher } = this.instance.xgrammar;
    const matchers: GrammarMatcher[] = [];
    for (let i = 0; i < count; i++)
      matchers.push(await GrammarMatcher.createGrammarMatcher(grammar));
    return { matchers, info };
  }

  /** Whether `constraint` is compiled (or being compiled) here: a call for it compiles nothing. */
  has(constraint: OutputConstraint): boolean {
    return this.grammars.has(JSON.stringify(constraint));
  }

  /** The compiled grammar, from the cache when this exact constraint was seen. */
  async compile(
    constraint: OutputConstraint,
  ): Promise<{ grammar: CompiledGrammar; info: GrammarCompileInfo }> {
    const key = JSON.stringify(constraint);
    const cached = this.grammars.get(key);
    if (cached) {
      // Most recently used last: eviction takes the first.
      this.grammars.delete(key);
      this.grammars.set(key, cached);
      this.cacheHits++;
      return { grammar: await cached, info: { cacheHit: true, compileMs: 0 } };
    }
    const started = performance.now();
    const compiling = this.compileNew(constraint);
    this.grammars.set(key, compiling);
    this.evict();
    let grammar: CompiledGrammar;
    try {
      grammar = await compiling;
    } catch (error) {
      if (this.grammars.get(key) === compiling) this.grammars.delete(key);
      throw error;
    }
    const compileMs = performance.now() - started;
    this.compilations++;
    this.compileMs += compileMs;
    return { grammar, info: { cacheHit: false, compileMs } };
  }

  dispose(): void {
    for (const grammar of this.grammars.values()) void grammar.then((g) => g.dispose(), noop);
    this.grammars.clear();
    this.compiler.dispose();
    this.tokenizerInfo.dispose();
  }

  private evict(): void {
    while (this.grammars.size > this.capacity) {
      const [key, oldest] = this.grammars.entries().next().value as [
        string,
        Promise<CompiledGrammar>,
      ];
      this.grammars.delete(key);
      // Matchers keep their own reference to the compiled grammar: disposing the cache's handle
      // does not pull it from under running sequences.
      void oldest.then((g) => g.dispose(), noop);
    }
  }

  private async compileNew(constraint: OutputConstraint): Promise<CompiledGrammar> {
    const converted = await this.convert(constraint);
    try {
      switch (converted.type) {
        case 'json_object':
          return await this.compiler.compileJSONSchema(
            ANY_OBJECT,
            false,
            NO_INDENT,
            undefined,
            false,
          );
        case 'ebnf':
          return await this.compiler.compileGrammar(converted.ebnf);
        case 'structural_tag':
          return await this.compiler.compileStructuralTag(converted.structuralTag);
      }
    } catch (error) {
      // Not expected once the checker converted it; still the request's error, not the worker's.
      throw new GrammarCompileError(
        this.instance.lastFailure() ?? (error as Error).message,
        subjectOf(constraint),
      );
    }
  }

  /**
   * What the main instance compiles: JSON Schemas rewritten and converted to EBNF
   * (json-schema.rewrite.ts), all of it on the checker instance first; a rejection replaces that
   * instance.
   */
  private async convert(constraint: OutputConstraint): Promise<Converted> {
    if (constraint.type === 'json_object') return constraint;
    const checker = (this.checker ??= loadXGrammar());
    const { xgrammar } = checker;
    try {
      if (constraint.type === 'json_schema') {
        const ebnf = await jsonSchemaEbnf(xgrammar, constraint.schema);
        (await xgrammar.Grammar.fromEBNF(ebnf)).dispose();
        return { type: 'ebnf', ebnf };
      }
      const structuralTag = await rewriteStructuralTag(xgrammar, constraint.structuralTag);
      (await xgrammar.Grammar.fromStructuralTag(structuralTag)).dispose();
      return { type: 'structural_tag', structuralTag };
    } catch (error) {
      this.checker = undefined;
      throw new GrammarCompileError(
        checker.lastFailure() ?? (error as Error).message,
        subjectOf(constraint),
      );
    }
  }
}

type Converted =
  | { readonly type: 'json_object' }
  | { readonly type: 'ebnf'; readonly ebnf: string }
  | { readonly type: 'structural_tag'; readonly structuralTag: string };

function noop(): void {}

function subjectOf(constraint: OutputConstraint): 'response_format' | 'tools' {
  return constraint.type === 'structural_tag' ? 'tools' : 'response_format';
}
