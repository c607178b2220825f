// Whisper speech recognition on ONNX Runtime: the model's engine (worker threads), features,
// decoding with timestamps over 30 s windows, and word alignment.
export * from './transcription.contract';
export * from './transcription.check';
export { WhisperModel, type TranscribeOptions, type WhisperModelLoad } from './whisper.model';
export { WhisperModelOptionsSchema, type WhisperModelOptions } from './whisper-model.options';
