import type { ChatCompletionRequest } from './chat.request';
import { chatTokensEstimate, promptTokensEstimate } from './chat-usage.estimate';

const generate = (
  sampling: ChatCompletionRequest['generate']['sampling'],
): ChatCompletionRequest['generate'] => ({
  messages: [
    { role: 'system', content: [{ text: 'Be brief.' }] },
    { role: 'user', content: [{ text: 'What is 2+2?' }, { image: { data: Buffer.alloc(0) } }] },
  ],
  sampling,
  user: '',
});

describe('the tokens a chat request is estimated at', () => {
  it('counts the prompt by characters, four a token, plus four a message', () => {
    // 9 + 12 characters: 6 tokens; two messages: 8 more.
    expect(promptTokensEstimate(generate({}))).toBe(14);
    const withTools = {
      ...generate({}),
      tools: [
        { type: 'function', function: { name: 'add', parameters_json: '{"type":"object"}' } },
      ],
      response_format: { type: 'json_schema', schema_json: '{}' },
    };
    // + 3 + 17 + 2 characters: 43 in all, 11 tokens.
    expect(promptTokensEstimate(withTools)).toBe(11 + 8);
  });

  it('counts the completion as max_tokens for each of the n choices, at most the rest of the context', () => {
    expect(chatTokensEstimate(generate({ max_tokens: 50, n: 3 }), 2048)).toBe(14 + 150);
    expect(chatTokensEstimate(generate({ max_tokens: 50, n: 3 }), undefined)).toBe(14 + 150);
    // More than the context holds is refused by the service: it can never use more.
    expect(chatTokensEstimate(generate({ max_tokens: 2 ** 32 - 1, n: 2 }), 2048)).toBe(
      14 + 2 * (2048 - 14),
    );
  });

  it('counts the rest of the context without max_tokens, everything when it is not known', () => {
    expect(chatTokensEstimate(generate({}), 2048)).toBe(2048);
    expect(chatTokensEstimate(generate({ n: 2 }), 2048)).toBe(14 + 2 * (2048 - 14));
    expect(chatTokensEstimate(generate({}), undefined)).toBe(Infinity);
  });
});
