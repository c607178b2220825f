// @tessera/text — tokenizers and chat templates (transformers.js), streamed detokenization and
// stop-string matching: the text-level work around a model, shared by engines and services.
export type * from './text.contract';
export { ChatTemplateError } from './chat-template.errors';
export { loadChatTokenizer } from './chat.tokenizer';
export { PromptTooLongError } from './prompt-length.bound';
export { loadLocalTokenizer } from './tokenizer.loader';
