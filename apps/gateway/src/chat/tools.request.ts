// tools, tool_choice and parallel_tool_calls of a chat completion request, checked once and
// mapped to the Generate fields. Every refusal names the exact value at fault
// (`tools[1].function.name`, `tool_choice`). The wording follows OpenAI's where it is known.
import { z } from 'zod';
import type { GenerateRequest, Tool, ToolChoice } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { boundedArray } from '../validation/bounded-array.schema';
import { paramName, parseValue } from '../validation/parse-body';
import { schemaProblem } from './json-schema.subset';

/** OpenAI's own limit on the number of tools of one request. */
export const MAX_TOOLS = 128;
export const FUNCTION_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';

export interface ToolFields {
  tools?: readonly unknown[] | null;
  tool_choice?: unknown;
  parallel_tool_calls?: boolean | null;
}

export type ToolGenerateFields = Pick<
  GenerateRequest,
  'tools' | 'tool_choice' | 'parallel_tool_calls'
>;

export const FunctionName = z.string().regex(new RegExp(FUNCTION_NAME_PATTERN), {
  error: `string does not match pattern. Expected a string that matches the pattern '${FUNCTION_NAME_PATTERN}'`,
});

const ToolType = z.object({ type: z.enum(['function', 'custom']) });

const FunctionTool = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: FunctionName,
    description: z.string().optional(),
    // An object; whether it describes an object is checked below, with OpenAI's message.
    parameters: z.looseObject({}).optional(),
    strict: z.boolean().nullish(),
  }),
});

const ChoiceMode = z.enum(['none', 'auto', 'required']);
const ChoiceType = z.object({ type: z.enum(['function', 'allowed_tools', 'custom']) });
const NamedFunction = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({ name: z.string() }),
});
const AllowedTools = z.strictObject({
  type: z.literal('allowed_tools'),
  allowed_tools: z.strictObject({
    mode: z.enum(['auto', 'required']),
    tools: boundedArray(NamedFunction, { min: 1, max: MAX_TOOLS }),
  }),
});

const unsupported = (param: string, message: string) =>
  OpenAIError.badRequest(`Invalid '${param}': ${message}`, param, 'unsupported_value');

/** The Generate fields for the tools, or {} when the request has none. */
export function toolsOf(fields: ToolFields): ToolGenerateFields {
  const tools = toolDefinitionsOf(fields.tools ?? []);
  if (tools.length === 0) {
    // Without tools no tool is ever called, which is what 'none' asks for.
    if (fields.tool_choice != null && fields.tool_choice !== 'none') {
      throw OpenAIError.badRequest(
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        'tool_choice',
      );
    }
    return {};
  }
  const names = tools.map((tool) => tool.function!.name!);
  const choice = toolChoiceOf(fields.tool_choice, names);
  return {
    tools: choice.allowed
      ? tools.filter((tool) => choice.allowed!.has(tool.function!.name!))
      : tools,
    ...(choice.choice ? { tool_choice: choice.choice } : {}),
    // proto3 has no absent bool: OpenAI's default (true) is sent when the client left it out.
    parallel_tool_calls: fields.parallel_tool_calls ?? true,
  };
}

/** At most MAX_TOOLS: the request schema checks the length before any tool is read. */
function toolDefinitionsOf(tools: readonly unknown[]): Tool[] {
  const seen = new Map<string, number>();
  return tools.map((tool, index) => {
    const at = ['tools', index];
    const { type } = parseValue(ToolType, tool, at);
    if (type === 'custom') {
      throw unsupported(
        `tools[${index}].type`,
        "custom tools (free-form or grammar inputs) are not supported by this server; define a 'function' tool.",
      );
    }
    const { function: fn } = parseValue(FunctionTool, tool, at);
    const earlier = seen.get(fn.name);
    if (earlier !== undefined) {
      const param = `tools[${index}].function.name`;
      throw OpenAIError.badRequest(
        `Invalid '${param}': '${fn.name}' is already the name of tools[${earlier}]; ` +
          'function names must be unique.',
        param,
      );
    }
    seen.set(fn.name, index);
    return {
      type: 'function',
      function: {
        name: fn.name,
        description: fn.description ?? '',
        parameters_json: fn.parameters
          ? parametersOf(fn.name, fn.parameters, fn.strict === true, index)
          : '',
        strict: fn.strict === true,
      },
    };
  });
}

/**
 * The parameters as JSON text. Function arguments are a JSON object in every tool-call format,
 * so the schema must describe one: `type: "object"`, or no `type` (taken as an object, and
 * stated so the grammar holds the arguments to an object). Left out entirely, the function
 * takes no arguments (as OpenAI reads it). The schema itself is held to what the grammar
 * enforces as response_format's is: its depth always, the supported subset with `strict`.
 */
function parametersOf(
  name: string,
  parameters: Record<string, unknown>,
  strict: boolean,
  index: number,
): string {
  const at = ['tools', index, 'function', 'parameters'];
  const { type } = parameters;
  if (type !== undefined && type !== 'object') {
    throw OpenAIError.badRequest(
      `Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', ` +
        `got 'type: ${JSON.stringify(type).slice(0, 60)}'.`,
      paramName(at),
      'invalid_function_parameters',
    );
  }
  const problem = schemaProblem(parameters, strict);
  if (problem) {
    const param = paramName([...at, ...problem.path]);
    throw OpenAIError.badRequest(`Invalid '${param}': ${problem.reason}.`, param);
  }
  return JSON.stringify(type === undefined ? { type: 'object', ...parameters } : parameters);
}

interface ParsedChoice {
  choice?: ToolChoice;
  /** allowed_tools: the only functions the model may see and call. */
  allowed?: ReadonlySet<string>;
}

function toolChoiceOf(value: unknown, names: readonly string[]): ParsedChoice {
  if (value == null) return {};
  if (typeof value === 'string')
    return { choice: { mode: parseValue(ChoiceMode, value, ['tool_choice']) } };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw OpenAIError.badRequest(
      "Invalid 'tool_choice': expected 'none', 'auto', 'required' or an object naming a function.",
      'tool_choice',
    );
  }
  const { type } = parseValue(ChoiceType, value, ['tool_choice']);
  if (type === 'custom') {
    throw unsupported('tool_choice.type', 'custom tools are not supported by this server.');
  }
  const known = (name: string, param: string) => {
    if (!names.includes(name)) {
      throw OpenAIError.badRequest(
        `Invalid '${param}': no function named '${name.slice(0, 64)}' is in 'tools'.`,
        param,
      );
    }
  };
  if (type === 'function') {
    const { function: fn } = parseValue(NamedFunction, value, ['tool_choice']);
    known(fn.name, 'tool_choice');
    return { choice: { function_name: fn.name } };
  }
  const { allowed_tools } = parseValue(AllowedTools, value, ['tool_choice']);
  allowed_tools.tools.forEach((tool, index) =>
    known(tool.function.name, `tool_choice.allowed_tools.tools[${index}].function.name`),
  );
  return {
    choice: { mode: allowed_tools.mode },
    allowed: new Set(allowed_tools.tools.map((tool) => tool.function.name)),
  };
}
