// @tessera/text — tokenizers and chat templates (transformers.js), streamed detokenization and
// stop-string matching: the text-level work around a model, shared by engines and services.
export type * from './prompt.contract';
export type * from './text.contract';
export { ChatTemplateError } from './chat-template.errors';
export { loadChatTokenizer } from './chat.tokenizer';
export { PromptTooLongError } from './prompt-length.bound';
export { loadLocalTokenizer } from './tokenizer.loader';
export {
  detectToolCallFormat,
  TOOL_CALL_FORMATS,
  TOOL_CALL_SYNTAX,
  toolCallTag,
  toolCallTrigger,
  type ToolCallFormatName,
  type ToolCallSyntax,
} from './tool-calls/tool-call.formats';
export {
  newToolCallId,
  ToolCallParser,
  type ToolCallParserEvent,
} from './tool-calls/tool-call.parser';
