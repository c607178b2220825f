// The `messages` of a chat completion request, one message at a time: its role first (so an
// unknown role is named as such, not as a mismatch with five shapes), then the strict shape of
// that role, then each content part by its `type`. Every 400 names the full path of the value at
// fault (`messages[2].content[1].type`). The messages, and the parts and tool calls of all of
// them together, are counted against the request's limits before any of them is read.
import { z } from 'zod';
import type { ChatInputLimits } from '@tessera/config';
import type { ChatMessage, ContentPart } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { arrayWithin } from '../validation/bounded-array.schema';
import { paramName, parseValue } from '../validation/parse-body';
import { FunctionName } from './tools.request';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
type Role = (typeof ROLES)[number];

/** Which content part types each role may send (as the spec defines them). */
const PART_TYPES: Record<Role, readonly string[]> = {
  system: ['text'],
  developer: ['text'],
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
  tool: ['text'],
};

// Built once: a zod schema costs far more to build than to run, and each message used one.
const PART_TYPE_SCHEMAS = Object.fromEntries(
  ROLES.map((role) => [role, z.object({ type: z.enum(PART_TYPES[role]) })]),
) as Record<Role, z.ZodObject<{ type: z.ZodEnum }>>;

const CacheBreakpoint = z.strictObject({ mode: z.literal('explicit') }).optional();

const PART_SCHEMAS = {
  text: z.strictObject({
    type: z.literal('text'),
    text: z.string(),
    // A prompt-cache hint: Tessera keeps no prompt cache, and the output is the same without it.
    prompt_cache_breakpoint: CacheBreakpoint,
  }),
  image_url: z.strictObject({
    type: z.literal('image_url'),
    image_url: z.strictObject({
      url: z.string().min(1),
      detail: z.enum(['auto', 'low', 'high']).optional(),
    }),
    prompt_cache_breakpoint: CacheBreakpoint,
  }),
  refusal: z.strictObject({ type: z.literal('refusal'), refusal: z.string() }),
};

const notContent = (issue: { input?: unknown }) =>
  Array.isArray(issue.input)
    ? 'must not be an empty array'
    : 'expected a string or an array of content parts';
/** A string, or a non-empty array whose parts are checked one by one (partsOf). */
const Content = z.custom<string | unknown[]>(
  (value) => typeof value === 'string' || (Array.isArray(value) && value.length > 0),
  { error: notContent },
);

// A call the model made earlier, sent back with the conversation: its name is held to the rule
// tool names are (OpenAI checks it too); the arguments are passed on as the model wrote them.
const ToolCall = z.strictObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.strictObject({ name: FunctionName, arguments: z.string() }),
});

const MESSAGE_SCHEMAS = {
  system: z.strictObject({
    role: z.literal('system'),
    content: Content,
    name: z.string().optional(),
  }),
  developer: z.strictObject({
    role: z.literal('developer'),
    content: Content,
    name: z.string().optional(),
  }),
  user: z.strictObject({ role: z.literal('user'), content: Content, name: z.string().optional() }),
  assistant: z.strictObject({
    role: z.literal('assistant'),
    content: Content.nullish(),
    refusal: z.string().nullish(),
    name: z.string().optional(),
    // Rejected below when set: a reference to an earlier audio answer, or a deprecated call.
    audio: z.unknown().optional(),
    function_call: z.unknown().optional(),
    tool_calls: z.array(ToolCall).optional(),
  }),
  tool: z.strictObject({
    role: z.literal('tool'),
    content: Content,
    tool_call_id: z.string(),
  }),
} satisfies Record<Role, z.ZodType>;

const RoleSchema = z.object({ role: z.enum(ROLES) });

function unsupported(param: string, message: string): OpenAIError {
  return OpenAIError.badRequest(`Invalid '${param}': ${message}`, param, 'unsupported_value');
}

export function parseMessages(messages: unknown[], limits: ChatInputLimits): ChatMessage[] {
  parseValue(arrayWithin({ max: limits.maxMessages }), messages, ['messages']);
  refuseTooManyParts(messages, limits.maxContentParts);
  // The ids of the calls made so far: a tool message answers one of them.
  const calls = new Set<string>();
  return messages.map((message, index) => {
    const parsed = parseMessage(message, ['messages', index]);
    for (const call of parsed.tool_calls ?? []) calls.add(call.id!);
    if (parsed.role === 'tool' && !calls.has(parsed.tool_call_id!)) {
      const param = `messages[${index}].tool_call_id`;
      throw OpenAIError.badRequest(
        `Invalid '${param}': '${parsed.tool_call_id!.slice(0, 64)}' matches no tool call of an ` +
          "earlier assistant message; a 'tool' message answers a call listed in 'tool_calls'.",
        param,
      );
    }
    return parsed;
  });
}

/**
 * Content parts and tool calls are counted over all messages together: a bound per message
 * would still let every message carry its most (2048 messages of 256 parts took ~5 s to parse).
 * Only the arrays' lengths are read here; their items are checked message by message after.
 */
function refuseTooManyParts(messages: readonly unknown[], max: number): void {
  let count = 0;
  messages.forEach((message, index) => {
    if (!isObject(message)) return;
    for (const field of ['content', 'tool_calls'] as const) {
      const items = message[field];
      if (!Array.isArray(items)) continue;
      count += items.length;
      if (count <= max) continue;
      const param = `messages[${index}].${field}`;
      throw OpenAIError.badRequest(
        `Invalid '${param}': the messages carry more than ${max} content parts and tool calls ` +
          'in all, the most one request may carry.',
        param,
      );
    }
  });
}

function parseMessage(message: unknown, at: readonly (string | number)[]): ChatMessage {
  const where = `messages[${at[1]}]`;
  if (isObject(message) && message.role === 'function') {
    throw unsupported(
      `${where}.role`,
      "'function' messages (deprecated function calling) are not supported; send the " +
        "result as a 'tool' message.",
    );
  }
  const { role } = parseValue(RoleSchema, message, at);
  switch (role) {
    case 'assistant': {
      const parsed = parseValue(MESSAGE_SCHEMAS.assistant, message, at);
      if (parsed.audio != null) {
        throw unsupported(`${where}.audio`, 'audio answers are not supported by this server.');
      }
      if (parsed.function_call != null) {
        throw unsupported(
          `${where}.function_call`,
          "deprecated function calls are not supported; use 'tool_calls'.",
        );
      }
      const content =
        parsed.content != null
          ? partsOf(parsed.content, role, [...at, 'content'])
          : parsed.refusal != null
            ? [{ text: parsed.refusal }]
            : [];
      if (parsed.content == null && parsed.refusal == null && !parsed.tool_calls?.length) {
        throw OpenAIError.badRequest(
          `Invalid '${where}.content': an assistant message needs content unless it has tool_calls.`,
          `${where}.content`,
        );
      }
      return {
        role,
        content,
        name: parsed.name ?? '',
        tool_calls: parsed.tool_calls ?? [],
        tool_call_id: '',
      };
    }
    case 'tool': {
      const parsed = parseValue(MESSAGE_SCHEMAS.tool, message, at);
      return {
        role,
        content: partsOf(parsed.content, role, [...at, 'content']),
        name: '',
        tool_calls: [],
        tool_call_id: parsed.tool_call_id,
      };
    }
    default: {
      const parsed = parseValue(MESSAGE_SCHEMAS[role], message, at);
      return {
        role,
        content: partsOf(parsed.content, role, [...at, 'content']),
        name: parsed.name ?? '',
        tool_calls: [],
        tool_call_id: '',
      };
    }
  }
}

/** A string is one text part; parts are checked by type, which the role must allow. */
function partsOf(
  content: string | unknown[],
  role: Role,
  at: readonly (string | number)[],
): ContentPart[] {
  if (typeof content === 'string') return [{ text: content }];
  const TypeSchema = PART_TYPE_SCHEMAS[role];
  return content.map((part, index) => {
    const where = [...at, index];
    const { type } = parseValue(TypeSchema, part, where);
    const param = `${paramName(where)}.type`;
    switch (type) {
      case 'text':
        return { text: parseValue(PART_SCHEMAS.text, part, where).text };
      case 'refusal':
        return { text: parseValue(PART_SCHEMAS.refusal, part, where).refusal };
      case 'image_url': {
        // Whether the model can see images is the service's call (it knows the model).
        const { image_url } = parseValue(PART_SCHEMAS.image_url, part, where);
        return { image: { url: image_url.url, detail: image_url.detail ?? 'auto' } };
      }
      default:
        throw unsupported(
          param,
          `'${type}' content parts are not supported by this server; send text parts.`,
        );
    }
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
