// What the decoder engine speaks: between the chat service and the DecoderModel facade (main
// thread), and across the thread boundary to the worker's continuous-batching scheduler. Every
// value here crosses a thread boundary (structured clone), so it is plain data.

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

/** A message as the chat template sees it (content already flattened to text parts). */
export interface PromptMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  /** Text parts joined in order; null only for an assistant message that has tool calls. */
  readonly content: string | null;
  readonly name?: string;
  /** Passed through to templates that render tool calls (issue 9 fills these in). */
  readonly toolCalls?: readonly {
    readonly id: string;
    readonly type: 'function';
    readonly function: { readonly name: string; readonly arguments: string };
  }[];
  readonly toolCallId?: string;
}

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

export type FinishReason = 'stop' | 'length';

/**
 * What a generation streams, per choice: text deltas (with the logprobs of the tokens that made
 * them, when asked) and then exactly one finish per choice.
 */
export type GenerationEvent =
  | {
      readonly type: 'delta';
      readonly choice: number;
      readonly text: string;
      readonly logprobs?: readonly TokenLogprob[];
    }
  | {
      readonly type: 'finish';
      readonly choice: number;
      readonly reason: FinishReason;
      readonly completionTokens: number;
    };

/** The job's result once every choice has finished. */
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
