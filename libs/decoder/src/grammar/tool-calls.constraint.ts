// The grammar of tool calls: an XGrammar structural tag whose tags are the calls exactly as the
// model's format writes them (toolCallTag in @tessera/text, the text the parser reads back),
// each with its tool's parameters as the JSON Schema of the arguments. See docs/chat.md,
// "Formats and enforcement".
//
// - 'auto': free text, but once the model writes the format's opening text (the trigger) the
//   call must be a well-formed call of a known tool with valid arguments;
// - 'required': the whole output is one or more calls; a named tool: exactly that one call;
// - 'none' (or no tools): no grammar from the tools (the response_format's, if any);
// - parallel_tool_calls false: one call at most (XGrammar's stop_after_first).
// With a response_format beside tools and 'auto', the output is either the JSON the format asks
// for or one call, never both (OpenAI answers with one or the other). One call, because XGrammar
// 0.1.27 refuses tags_with_separator (several calls) inside an `or`.
import {
  toolCallTag,
  toolCallTrigger,
  type ToolCallFormatName,
  type ToolDefinition,
} from '@tessera/text';
import type { ChatGeneration, OutputConstraint } from '../decoder.protocol';

type Format = Record<string, unknown>;

/** A tool without parameters takes none: the arguments are `{}`. */
const NO_PARAMETERS = { type: 'object', properties: {}, additionalProperties: false };

/** Between two forced calls: the text a model of the format puts there. */
const SEPARATOR: Readonly<Record<ToolCallFormatName, string>> = {
  hermes: '\n',
  llama3_json: '; ',
  mistral: '\n',
};

/** Whether the generation's tools are in play: given, and tool_choice not 'none'. */
export function toolsActive(generation: ChatGeneration): boolean {
  return (generation.tools?.length ?? 0) > 0 && generation.toolChoice !== 'none';
}

export function toolCallsConstraintOf(
  generation: ChatGeneration,
  format: ToolCallFormatName,
): OutputConstraint | undefined {
  if (!toolsActive(generation)) return undefined;
  const tools = generation.tools!;
  const choice = generation.toolChoice ?? 'auto';
  const single = generation.parallelToolCalls === false;
  let root: Format;
  if (typeof choice === 'object') {
    const tool = tools.find((candidate) => candidate.name === choice.name);
    // The gateway refuses a tool_choice naming no tool; an engine caller that does gets none.
    if (tool === undefined) throw new Error(`tool_choice names '${choice.name}', not a tool`);
    root = tagOf(format, tool);
  } else if (choice === 'required') {
    root = callsOnly(format, tools, single);
  } else {
    const json = jsonContentOf(generation);
    root =
      json === undefined
        ? {
            type: 'triggered_tags',
            triggers: [toolCallTrigger(format)],
            tags: tools.map((tool) => tagOf(format, tool)),
            at_least_one: false,
            stop_after_first: single,
          }
        : { type: 'or', elements: [json, ...tools.map((tool) => tagOf(format, tool))] };
  }
  return {
    type: 'structural_tag',
    structuralTag: JSON.stringify({ type: 'structural_tag', format: root }),
  };
}

/** One or more calls and nothing else (one with parallel_tool_calls false). */
function callsOnly(
  format: ToolCallFormatName,
  tools: readonly ToolDefinition[],
  single: boolean,
): Format {
  return {
    type: 'tags_with_separator',
    tags: tools.map((tool) => tagOf(format, tool)),
    separator: SEPARATOR[format],
    at_least_one: true,
    stop_after_first: single,
  };
}

function tagOf(format: ToolCallFormatName, tool: ToolDefinition): Format {
  const { begin, end } = toolCallTag(format, tool.name);
  const schema: unknown =
    tool.parameters === undefined ? NO_PARAMETERS : JSON.parse(tool.parameters);
  return { type: 'tag', begin, content: { type: 'json_schema', json_schema: schema }, end };
}

/** The response_format as structural-tag content, when it asks for JSON. */
function jsonContentOf(generation: ChatGeneration): Format | undefined {
  const format = generation.responseFormat;
  if (format?.type === 'json_object') {
    return { type: 'json_schema', json_schema: { type: 'object' } };
  }
  if (format?.type === 'json_schema') {
    return { type: 'json_schema', json_schema: JSON.parse(format.schema) as unknown };
  }
  return undefined;
}
