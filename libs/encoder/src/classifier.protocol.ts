// What the classifier engine (a sequence-classification head on the shared encoder runtime)
// speaks across the thread boundary: one job per micro-batch, texts tokenized, windowed and
// run in the worker; raw logits per window come back, activated on the caller's side.
import type { TokenWindowing } from './token.windows';

/** Why a text was not classified; the caller turns it into an error for its request. */
export type ClassifierRejection =
  | { readonly reason: 'empty' }
  /** More windows than `maxWindows` would cover it (`truncated`: tokenizing stopped early). */
  | { readonly reason: 'too_long'; readonly truncated?: boolean }
  /** Longer in characters than any text that fits the window bound; never tokenized. */
  | { readonly reason: 'too_many_characters'; readonly characters: number };

export interface ClassifyJob {
  readonly texts: readonly string[];
  readonly padTokenId: number;
  readonly outputName: string;
  readonly windowing: TokenWindowing;
}

export interface ClassifyJobResult {
  /** `[windows in all, labels]` raw logits, the windows of text 0 first, then of text 1, … */
  readonly logits: Float32Array;
  /** 0 when no window ran. */
  readonly labels: number;
  /** Windows of each text (0 for a rejected one). */
  readonly windows: number[];
  /** Tokens of each text with its special tokens (a lower bound when rejected as truncated). */
  readonly tokens: number[];
  readonly rejections: (ClassifierRejection | null)[];
}

export interface ClassifierEngineInfo {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly padTokenId: number | null;
  /** The special tokens the tokenizer puts before and after a text (BERT: [CLS] / [SEP]). */
  readonly specials: { readonly prefix: readonly number[]; readonly suffix: readonly number[] };
}

export interface ClassifierEngineTypes {
  readonly options: { readonly onnxFile: string };
  readonly info: ClassifierEngineInfo;
  readonly request: ClassifyJob;
  readonly result: ClassifyJobResult;
  readonly chunk: never;
}
