// The chat request's messages against their limits: refused on the counts alone, before any
// message, part or call is read, naming the array at fault.
import { DEFAULT_CHAT_INPUTS } from '@tessera/config';
import { countingItemReads } from '@tessera/testing';
import { OpenAIError } from '../errors/openai-error';
import { parseChatCompletionRequest } from './chat.request';

const limits = { maxMessages: 3, maxContentParts: 4 };
const hi = { role: 'user', content: 'hi' };
const text = { type: 'text', text: 'a' };
const call = (id: string) => ({
  id,
  type: 'function',
  function: { name: 'f', arguments: '{}' },
});

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

  it('refuses more content parts than the limit in all messages together, reading none', () => {
    const first = countingItemReads(3, text);
    const second = countingItemReads(2, text);
    const messages = [
      { role: 'user', content: first.array },
      { role: 'user', content: second.array },
    ];
    expect(refusal(messages)).toEqual({
      status: 400,
      param: 'messages[1].content',
      message:
        "Invalid 'messages[1].content': the messages carry more than 4 content parts and tool " +
        'calls in all, the most one request may carry.',
      code: null,
    });
    expect(first.reads() + second.reads()).toBe(0);
  });

  it('counts tool calls with the parts, reading none of them', () => {
    const { array, reads } = countingItemReads(4, call('c'));
    const messages = [
      { role: 'user', content: [text] },
      { role: 'assistant', tool_calls: array },
    ];
    expect(refusal(messages)).toMatchObject({ param: 'messages[1].tool_calls' });
    expect(reads()).toBe(0);
  });

  it('takes as many parts and calls as the limit', () => {
    const messages = [
      { role: 'user', content: [text, text] },
      { role: 'assistant', tool_calls: [call('a'), call('b')] },
    ];
    expect(parseChatCompletionRequest({ model: 'm', messages }, limits).generate.messages).toEqual([
      expect.objectContaining({ content: [{ text: 'a' }, { text: 'a' }] }),
      expect.objectContaining({ tool_calls: [call('a'), call('b')] }),
    ]);
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
