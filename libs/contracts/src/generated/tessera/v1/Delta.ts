// Original file: tessera/v1/chat.proto

import type { ToolCallDelta as _tessera_v1_ToolCallDelta, ToolCallDelta__Output as _tessera_v1_ToolCallDelta__Output } from '../../tessera/v1/ToolCallDelta';
import type { TokenLogprob as _tessera_v1_TokenLogprob, TokenLogprob__Output as _tessera_v1_TokenLogprob__Output } from '../../tessera/v1/TokenLogprob';

export interface Delta {
  'role'?: (string);
  'content'?: (string);
  'tool_calls'?: (_tessera_v1_ToolCallDelta)[];
  'logprobs'?: (_tessera_v1_TokenLogprob)[];
  'tokens'?: (number);
  'prompt_tokens'?: (number);
}

export interface Delta__Output {
  'role': (string);
  'content': (string);
  'tool_calls': (_tessera_v1_ToolCallDelta__Output)[];
  'logprobs': (_tessera_v1_TokenLogprob__Output)[];
  'tokens': (number);
  'prompt_tokens': (number);
}
