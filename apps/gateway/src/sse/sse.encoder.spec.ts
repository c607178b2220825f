import { SseEncoder } from './sse.encoder';

const encoder = new SseEncoder();

it('writes each event as one data line of JSON and a blank line', () => {
  expect(encoder.event({ id: 'chatcmpl-1', choices: [{ delta: { content: 'hi' } }] })).toBe(
    'data: {"id":"chatcmpl-1","choices":[{"delta":{"content":"hi"}}]}\n\n',
  );
});

it('keeps an event with newlines in its text on one line', () => {
  const event = encoder.event({ content: 'two\nlines\r\n' });
  expect(event).toBe('data: {"content":"two\\nlines\\r\\n"}\n\n');
  expect(event.slice(0, -2)).not.toMatch(/[\r\n]/);
});

it('ends the stream the way OpenAI does', () => {
  expect(encoder.done()).toBe('data: [DONE]\n\n');
});

it('writes an error as an event holding the OpenAI error body', () => {
  const body = { error: { message: 'm', type: 'server_error', param: null, code: null } };
  expect(encoder.event(body)).toBe(
    'data: {"error":{"message":"m","type":"server_error","param":null,"code":null}}\n\n',
  );
});
