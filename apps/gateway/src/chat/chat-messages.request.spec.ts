// The chat request's arrays against their limits: refused on the length alone, before any
// message, part or call is read, with OpenAI's wording and the array's own path.
import { DEFAULT_CHAT_INPUTS } from '@tessera/config';
import { OpenAIError } from '../errors/openai-error';
import { parseChatCompletionRequest } from './chat.request';

const limits = { maxMessages: 3, maxMessageParts: 2 };
const hi = { role: 'user', content: 'hi' };
const text = { type: 'text', text: 'a' };
const call = (id: string) => ({
  id,
  type: 'function',
  function: { name: 'f', arguments: '{}' },
});

/** `length` copies of `item` in an array that counts how many times an item is read. */
function countingItemReads(length: number, item: unknown) {
  let reads = 0;
  const array = new Proxy(Array<unknown>(length).fill(item), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { array, reads: () => reads };
}

function refusal(messages: unknown[], chatLimits = limits) {
  try {
    parseChatCompletionRequest({ model: 'm', messages }, chatLimits);
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAIError);
    const { status, param, message, code } = error as OpenAIError;
    return { status, param, message, code };
  }
  throw new Error('expected a 400');
}

const tooLong = (param: string, maximum: number, length: number) => ({
  status: 400,
  param,
  message:
    `Invalid '${param}': array too long. Expected an array with maximum length ${maximum}, ` +
    `but got an array with length ${length} instead.`,
  code: null,
});

describe('chat message limits', () => {
  it('refuses 500,000 messages on their count, reading none of them', () => {
    const { array, reads } = countingItemReads(500_000, { role: 'system', content: '' });
    expect(refusal(array, DEFAULT_CHAT_INPUTS)).toEqual(tooLong('messages', 2048, 500_000));
    expect(reads()).toBe(0);
  });

  it('takes as many messages as the limit, and refuses one more', () => {
    const request = parseChatCompletionRequest({ model: 'm', messages: [hi, hi, hi] }, limits);
    expect(request.generate.messages).toHaveLength(3);
    expect(refusal([hi, hi, hi, hi])).toEqual(tooLong('messages', 3, 4));
  });

  it('refuses a message with too many content parts, reading none of them', () => {
    const { array, reads } = countingItemReads(3, text);
    const messages = [hi, { role: 'user', content: array }];
    expect(refusal(messages)).toEqual(tooLong('messages[1].content', 2, 3));
    expect(reads()).toBe(0);
  });

  it('refuses an assistant message with too many tool calls, reading none of them', () => {
    const { array, reads } = countingItemReads(3, call('c'));
    const messages = [hi, { role: 'assistant', tool_calls: array }];
    expect(refusal(messages)).toEqual(tooLong('messages[1].tool_calls', 2, 3));
    expect(reads()).toBe(0);
  });

  it('checks parts and calls within the limit one by one, with their paths', () => {
    const parts = [text, { type: 'text', text: 5 }];
    expect(refusal([{ role: 'user', content: parts }])).toMatchObject({
      param: 'messages[0].content[1].text',
    });
    const calls = [call('a'), { ...call('b'), type: 'other' }];
    expect(refusal([hi, { role: 'assistant', tool_calls: calls }])).toMatchObject({
      param: 'messages[1].tool_calls[1].type',
    });
  });
});
