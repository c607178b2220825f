// What the decoder engine speaks: between the chat service and the DecoderModel facade (main
// thread), and across the thread boundary to the worker's continuous-batching scheduler. Every
// value here crosses a thread boundary (structured clone), so it is plain data.

import type { PromptMessage, ToolDefinition } from '@tessera/text';

/** How one sequence picks its next token; the gateway has already applied OpenAI's defaults. */
export interface SamplingOptions {
  /** 0 is greedy (argmax); OpenAI range 0–2. */
  readonly temperature: number;
  /** Nucleus mass kept (1 keeps everything). */
  readonly topP: number;
  /** Extension: keep the k most likely tokens (0 = off). */
  readonly topK: number;
  /** Extension: drop tokens below min_p × the top probability (0 = off). */
  readonly minP: number;
  /** Same seed + same request → same output, alone or in a batch. Absent: a random seed. */
  readonly seed?: number;
  /** OpenAI −2…2, on the counts of tokens generated so far. */
  readonly presencePenalty: number;
  readonly frequencyPenalty: number;
  /** Extension (HF/CTRL style, > 0, 1 = off), on prompt and generated tokens. */
  readonly repetitionPenalty: number;
  /** Token id → bias added to its logit (−100…100); ids are checked against the vocabulary. */
  readonly logitBias: Readonly<Record<number, number>>;
}

/** OpenAI's tool_choice: 'none', 'auto', 'required', or one named function forced. */
export type ToolChoice = 'none' | 'auto' | 'required' | { readonly name: string };

/** OpenAI's response_format, checked at the gateway (the schema is JSON text). */
export type ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly name: string;
      readonly schema: string;
      readonly strict: boolean;
    };

/**
 * What a sequence's output is held to, enforced token by token by the grammar stage of the
 * sampler (libs/decoder/src/grammar). Plain data so it crosses to the worker; the worker compiles
 * each distinct constraint once and caches it. JSON texts, not objects, so the cache key is exact.
 */
export type OutputConstraint =
  /** Any JSON object (OpenAI's JSON mode). */
  | { readonly type: 'json_object' }
  /** A value valid against this JSON Schema (JSON text). */
  | { readonly type: 'json_schema'; readonly schema: string }
  /** An XGrammar structural tag (JSON text): tool calls, triggered or forced. */
  | { readonly type: 'structural_tag'; readonly structuralTag: string };

/** One chat generation, as the service hands it to DecoderModel.generate. */
export interface ChatGeneration {
  readonly messages: readonly PromptMessage[];
  readonly sampling: SamplingOptions;
  /** Independent choices sharing one prefill. */
  readonly n: number;
  /** Absent: until the end of the context (or an end-of-sequence token). */
  readonly maxTokens?: number;
  /** At most 4; never part of the output, even when split across tokens. */
  readonly stop: readonly string[];
  readonly logprobs: boolean;
  /** 0–20, only with logprobs. */
  readonly topLogprobs: number;
  /** Absent or 'text': free text. */
  readonly responseFormat?: ResponseFormat;
  /** Rendered into the prompt by the chat template; absent or empty: no tools. */
  readonly tools?: readonly ToolDefinition[];
  /** Default 'auto' when tools are given. */
  readonly toolChoice?: ToolChoice;
  /** Default true: several calls in one answer are allowed. */
  readonly parallelToolCalls?: boolean;
}

/** What the worker runs: the prompt already rendered and tokenized on the main thread. */
export interface GenerateJob {
  readonly promptIds: readonly number[];
  readonly sampling: SamplingOptions;
  readonly n: number;
  /** Resolved: the request's max_tokens, or what is left of the context. */
  readonly maxTokens: number;
  readonly stop: readonly string[];
  readonly logprobs: boolean;
  readonly topLogprobs: number;
  /** Grammar every choice's output is held to; absent: unconstrained. */
  readonly constraint?: OutputConstraint;
  /**
   * The prompt's images, preprocessed by the main thread's image worker: every tile of every
   * image in prompt order (tiles × 3 × side × side). The vision encoder's features replace the
   * embeddings of the prompt's image tokens, in order, at prefill.
   */
  readonly images?: ImageTiles;
}

/** Preprocessed image tiles, ready for the vision encoder. */
export interface ImageTiles {
  readonly pixelValues: Float32Array;
  readonly tiles: number;
  readonly side: number;
}

export interface TopLogprob {
  readonly token: string;
  readonly logprob: number;
  /** The token's UTF-8 bytes (a byte-level token may be part of a character). */
  readonly bytes: readonly number[];
}

export interface TokenLogprob extends TopLogprob {
  readonly topLogprobs: readonly TopLogprob[];
}

/** 'tool_calls' is set on the main thread once the output parser found a call. */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/**
 * What a generation streams, per choice: text deltas (with the logprobs of the tokens that made
 * them, when asked) and then exactly one finish per choice; for a constrained job, first, how
 * its grammar was obtained. The worker streams them bare (the pool's stream carries events, not
 * the job's result); DecoderModel adds the prompt's token count to the generation's first delta
 * or tool call and the request's usage to its last finish, so a reader never waits on anything
 * but the stream.
 */
export type GenerationEvent =
  | {
      readonly type: 'delta';
      readonly choice: number;
      readonly text: string;
      readonly logprobs?: readonly TokenLogprob[];
      /**
       * Completion tokens generated since the choice's previous delta, this one's included (a
       * stream cut short is billed by their sum; the finish's count is the exact total).
       */
      readonly tokens?: number;
      /** On the generation's first delta or tool call: the prompt's tokens. */
      readonly promptTokens?: number;
    }
  | {
      /**
       * Part of a tool call parsed out of the text, in OpenAI's delta shape: the first
       * event of a call carries `id` and `name` (and `arguments: ''` or a first piece); later
       * ones append to `arguments`. Text that belongs to a call never appears in a 'delta'.
       */
      readonly type: 'tool_call';
      readonly choice: number;
      /** Position of the call within the choice's tool_calls. */
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly arguments: string;
      /** As a delta's: completion tokens since the choice's previous event. */
      readonly tokens?: number;
      /** As a delta's: on the generation's first delta or tool call. */
      readonly promptTokens?: number;
    }
  | {
      readonly type: 'finish';
      readonly choice: number;
      readonly reason: FinishReason;
      /** This choice's. */
      readonly completionTokens: number;
      /** On the generation's last finish (every choice has finished): the request's counts. */
      readonly usage?: GenerationUsage;
    }
  | {
      /** Before a constrained job's first token: its grammar came from the cache or was compiled. */
      readonly type: 'grammar';
      readonly cacheHit: boolean;
      readonly compileMs: number;
    };

/** A generation's token counts once every choice has finished (also the worker's job result). */
export interface GenerationUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** What a loaded chat model reports (GET /v1/models, request validation). */
export interface DecoderModelInfo {
  /** Positions the model can attend to (prompt + output). */
  readonly contextLength: number;
  /** Rows of the logits: valid token ids are 0 … vocabSize − 1. */
  readonly vocabSize: number;
  readonly eosTokenIds: readonly number[];
  /** Most choices (`n`) one request may ask for (the model's `max_n`). */
  readonly maxN: number;
  /** Whether the model takes images (a vision encoder beside the decoder). */
  readonly vision: boolean;
}

/** `workerData` of the decoder engine: the graph and the scheduler's limits (see docs/chat.md). */
export interface DecoderEngineOptions {
  /** Graph file relative to the model directory. */
  readonly onnxFile: string;
  /** Sequences decoded together in one step (choices count one each). */
  readonly maxSequences: number;
  /** KV budget of the worker in tokens (sum over admitted sequences of prompt + max tokens). */
  readonly kvCacheTokens: number;
  /** Most prompt tokens prefilled between two decode steps. */
  readonly prefillChunkTokens: number;
  /** No run on a single row of a graph whose kernels compute a lone row differently. */
  readonly batchInvariant: boolean;
  /** A vision-language model (transformers.js layout): its other two graphs. */
  readonly vision?: VisionGraphs;
}

/** The graphs beside a VLM's decoder, relative to the model directory. */
export interface VisionGraphs {
  /** pixel_values → image_features. */
  readonly visionFile: string;
  /** input_ids → inputs_embeds (the decoder takes embeddings). */
  readonly embedFile: string;
  /** The token whose prompt positions take the image features, in order. */
  readonly imageTokenId: number;
}

/** What a decoder worker reports once its graph and tokenizer are loaded. */
export interface DecoderEngineInfo {
  readonly layers: number;
  readonly kvHeads: number;
  readonly headSize: number;
  readonly kvType: 'float32' | 'float16';
  /** Logits rows as the graph declares them (undefined when symbolic). */
  readonly graphVocabSize?: number;
}

export interface DecoderEngineTypes {
  readonly options: DecoderEngineOptions;
  readonly info: DecoderEngineInfo;
  readonly request: GenerateJob;
  readonly result: GenerationUsage;
  readonly chunk: GenerationEvent;
}
