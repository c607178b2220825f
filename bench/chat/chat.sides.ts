// The sides of the chat benchmark, each a way to serve request `index` (prompt `index mod
// prompts`) that reports one event per generated token: the three references in this process
// and Tessera over HTTP, fp32 and int4, each as plain-attention and GroupQueryAttention graphs. Which concurrency levels each side runs at, and how many
// bytes of weights its decode step reads, are part of the side.
import type { RequestRecorder } from '../lib/request.trace';
import type { BareGreedyLoop } from './bare-greedy.reference';
import type { BenchPrompt } from './chat.prompts';
import type { LlamaCppReference } from './llama-cpp.reference';
import type { TesseraChatClient } from './tessera-chat.client';
import type { TransformersGenerate } from './transformers-generate.reference';

export const SIDE_NAMES = [
  'bare-fp32',
  'bare-int4',
  'transformers-fp32',
  'llama.cpp',
  'tessera-fp32',
  'tessera-int4',
  'tessera-gqa-fp32',
  'tessera-gqa-int4',
] as const;
/**
 * `--json-schema` (bench/chat/json-schema.workload.ts): tessera-fp32 again, every request held to
 * a JSON Schema by the grammar mask. Only that mode runs it.
 */
export const JSON_SCHEMA_SIDE = 'tessera-fp32-json-schema';
export type SideName = (typeof SIDE_NAMES)[number] | typeof JSON_SCHEMA_SIDE;

export interface SideOutcome {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Which of the request's events carried tokens; absent: every event did. */
  readonly tokenEvents?: number[];
  /** The generated text, where the side's output is compared (greedy gate). */
  readonly text?: string;
}

export interface ChatSide {
  readonly name: SideName;
  /** What it is, for the result file. */
  readonly description: string;
  /** Bytes of weights one decode step reads (for "% of the bandwidth ceiling"). */
  readonly bytesPerStep: number;
  /** Whether it is measured at this concurrency (references only where a target reads them). */
  runsAt(concurrency: number): boolean;
  /** Before a level's first request (llama.cpp sizes its sequences to the concurrency). */
  prepare?(concurrency: number): Promise<void>;
  send(prompt: BenchPrompt, recorder: RequestRecorder): Promise<SideOutcome>;
  /** At the end of the run. */
  dispose(): Promise<unknown>;
}

export interface SideSettings {
  readonly outputTokens: number;
  readonly decode: (ids: readonly number[]) => string;
}

/** A generator in this process that counts its tokens: one event per token, as it comes. */
type CountingGenerator = (
  promptIds: readonly number[],
  outputTokens: number,
  onToken: () => void,
) => Promise<number>;

function countingSend(generate: CountingGenerator, settings: SideSettings): ChatSide['send'] {
  return async (prompt, recorder) => ({
    promptTokens: prompt.ids.length,
    completionTokens: await generate(prompt.ids, settings.outputTokens, () => recorder.event()),
  });
}

export function bareSide(
  name: 'bare-fp32' | 'bare-int4',
  loop: BareGreedyLoop,
  bytesPerStep: number,
  settings: SideSettings,
): ChatSide {
  return {
    name,
    description: `bare onnxruntime-node greedy loop, batch 1, KV cache fed back (${name.slice(5)} file)`,
    bytesPerStep,
    runsAt: (concurrency) => concurrency === 1,
    send: async (prompt, recorder) => {
      const ids = await loop.generate(prompt.ids, settings.outputTokens, () => recorder.event());
      return {
        promptTokens: prompt.ids.length,
        completionTokens: ids.length,
        text: settings.decode(ids),
      };
    },
    dispose: () => loop.release(),
  };
}

export function transformersSide(
  generate: TransformersGenerate,
  bytesPerStep: number,
  settings: SideSettings,
  levels: ReadonlySet<number>,
): ChatSide {
  return {
    name: 'transformers-fp32',
    description:
      '@huggingface/transformers AutoModelForCausalLM.generate(), greedy, one request at a time (fp32 file)',
    bytesPerStep,
    runsAt: (concurrency) => levels.has(concurrency),
    send: countingSend((...args) => generate.generate(...args), settings),
    dispose: () => generate.dispose(),
  };
}

export function llamaCppSide(
  llama: LlamaCppReference,
  settings: SideSettings,
  promptTokens: number,
): ChatSide {
  return {
    name: 'llama.cpp',
    description: `node-llama-cpp ${llama.version} (prebuilt CPU binary, ${llama.threadCount} threads), one sequence per concurrent request, greedy, GGUF Q4_1`,
    bytesPerStep: llama.bytesPerStep,
    runsAt: () => true,
    // Room for the prompt, the output and llama.cpp's padding.
    prepare: (concurrency) => llama.prepare(concurrency, promptTokens + settings.outputTokens + 64),
    send: countingSend((...args) => llama.generate(...args), settings),
    dispose: () => llama.dispose(),
  };
}

export function tesseraSide(
  name: `tessera-${string}` & SideName,
  client: TesseraChatClient,
  bytesPerStep: number,
  settings: SideSettings,
): ChatSide {
  return {
    name,
    description:
      `Tessera over HTTP (gateway → gRPC → chat service), streamed, ${name.slice(8, 12)} file` +
      (name === JSON_SCHEMA_SIDE ? ', response_format json_schema' : ''),
    bytesPerStep,
    runsAt: () => true,
    send: (prompt, recorder) => client.complete(prompt, settings.outputTokens, recorder),
    dispose: async () => client.close(),
  };
}
