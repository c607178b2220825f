// The tool-call formats models are trained to write, described once so that the grammar that
// forces a call (libs/decoder/src/grammar/output-constraint.ts), the parser that reads it back
// (tool-call.parser.ts) and the prompt that asks for it (tool-prompt.fallback.ts) cannot drift
// apart. See docs/chat.md, "Formats and enforcement".

export type ToolCallFormatName = 'hermes' | 'llama3_json' | 'mistral';

export const TOOL_CALL_FORMATS: readonly ToolCallFormatName[] = [
  'hermes',
  'llama3_json',
  'mistral',
];

/** How one format writes calls; each call is a JSON object `{"name": …, <argumentsKey>: {…}}`. */
export interface ToolCallSyntax {
  readonly name: ToolCallFormatName;
  /**
   * Texts that open a section of calls anywhere in the output. A trigger `inCall` is the start
   * of the call object itself (Llama 3's bare JSON) and is parsed as such; the others are markup.
   */
  readonly triggers: readonly { readonly text: string; readonly inCall: boolean }[];
  /** Markup between the trigger and the first object ('[' of Mistral's list). */
  readonly open: string;
  /** Between two calls of one section (',' in Mistral's list, ';' between Llama 3 objects). */
  readonly separator?: string;
  /** Markup that ends the section; '' when the section ends with its last object. */
  readonly close: string;
  readonly argumentsKey: 'arguments' | 'parameters';
}

export const TOOL_CALL_SYNTAX: Readonly<Record<ToolCallFormatName, ToolCallSyntax>> = {
  // Hermes 2 Pro, Qwen2.5/Qwen3, SmolLM3: one call per <tool_call> block, JSON on its own line.
  hermes: {
    name: 'hermes',
    triggers: [{ text: '<tool_call>', inCall: false }],
    open: '',
    close: '</tool_call>',
    argumentsKey: 'arguments',
  },
  // Llama 3.1–3.3 JSON tool calling: a bare object (after <|python_tag|> when the model writes
  // it), several separated by ';' as vLLM's llama3_json parser reads them.
  llama3_json: {
    name: 'llama3_json',
    triggers: [
      { text: '<|python_tag|>', inCall: false },
      { text: '{"name"', inCall: true },
    ],
    open: '',
    separator: ';',
    close: '',
    argumentsKey: 'parameters',
  },
  // Mistral v3 tokenizers: [TOOL_CALLS] then a JSON list of calls.
  mistral: {
    name: 'mistral',
    triggers: [{ text: '[TOOL_CALLS]', inCall: false }],
    open: '[',
    separator: ',',
    close: ']',
    argumentsKey: 'arguments',
  },
};

/**
 * The format a chat template asks for, from the markup it writes: '<tool_call>' (Hermes, Qwen),
 * '[TOOL_CALLS]' (Mistral), Llama 3's ipython role or `"parameters"` call shape. A template that
 * renders no tools at all gets Hermes through the fallback prompt (tool-prompt.fallback.ts), the
 * format small ChatML models such as SmolLM2 were tuned on; `undefined` only for a template that
 * renders tools in a format none of these is, which then needs `tool_call_format` set.
 */
export function detectToolCallFormat(template: string): ToolCallFormatName | undefined {
  if (template.includes('<tool_call>')) return 'hermes';
  if (template.includes('[TOOL_CALLS]')) return 'mistral';
  if (template.includes('<|python_tag|>') || /ipython|"parameters"/.test(template)) {
    return 'llama3_json';
  }
  return templateRendersTools(template) ? undefined : 'hermes';
}

/** Whether the template reads the `tools` variable (else the fallback prompt lists them). */
export function templateRendersTools(template: string): boolean {
  return /\btools\b/.test(template);
}

/** Whether the template writes an assistant message's `tool_calls` (else they go into content). */
export function templateRendersToolCalls(template: string): boolean {
  return /\btool_calls\b/.test(template);
}

/**
 * A call's text exactly as the format writes it and the grammar forces it: the begin (up to the
 * arguments object) and the end, around the arguments JSON. One call per section, so parallel
 * calls are repeated sections (which every parser of the format also reads).
 */
export function toolCallTag(
  format: ToolCallFormatName,
  name: string,
): { readonly begin: string; readonly end: string } {
  const syntax = TOOL_CALL_SYNTAX[format];
  const head = `{"name": ${JSON.stringify(name)}, "${syntax.argumentsKey}": `;
  switch (format) {
    case 'hermes':
      return { begin: `<tool_call>\n${head}`, end: '}\n</tool_call>' };
    case 'mistral':
      return { begin: `[TOOL_CALLS][${head}`, end: '}]' };
    case 'llama3_json':
      return { begin: head, end: '}' };
  }
}

/** Text that starts a call of this format in a structural tag (each tag's begin starts with it). */
export function toolCallTrigger(format: ToolCallFormatName): string {
  switch (format) {
    case 'hermes':
      return '<tool_call>';
    case 'mistral':
      return '[TOOL_CALLS]';
    case 'llama3_json':
      return '{"name": ';
  }
}
