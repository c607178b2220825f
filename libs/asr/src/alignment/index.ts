// Word timestamps from Whisper's cross-attention, as openai-whisper (timing.py) and transformers
// (`_extract_token_timestamps`, `_combine_tokens_into_words`) compute them. Pure functions, no
// ONNX Runtime: the engine collects the alignment heads' `cross_attentions.*` outputs while it
// decodes a window and calls alignWindowWords once per window.
//
//   alignWindowWords({
//     tokens,          // the window's decoder sequence: prefix + generated tokens (+ eot)
//     prefixLength,    // tokens of the prefix (previous text, sot sequence), fed at once
//     weights: { data, heads, rows, frames },  // Float32Array [heads, rows ≥ tokens - 1, frames]
//     numFrames,       // encoder frames with audio: window seconds × 50
//     timeOffset,      // window start, seconds
//     eot, decode, language?, textEnd?,
//   }) → TranscriptWord[]  // { word, start, end }, absolute seconds, word without leading space
//
// Row r of the weights is the attention while token r was the decoder's input (the prefix's rows
// come from the first, prompt-wide step). docs/transcription.md, "Word timestamps", says more.
export { dynamicTimeWarping, type WarpingPath } from './dtw.path';
export { medianFilterRows } from './median.filter';
export {
  ALIGNMENT_MEDIAN_FILTER_WIDTH,
  ALIGNMENT_TIME_PRECISION,
  tokenTimestamps,
  type CrossAttentionWeights,
  type TokenTimestampsInput,
} from './token.timestamps';
export { alignWindowWords, type WindowAlignmentInput } from './words.align';
export {
  APPEND_PUNCTUATIONS,
  PREPEND_PUNCTUATIONS,
  combineTokensIntoWords,
  type WordTokens,
} from './words.split';
