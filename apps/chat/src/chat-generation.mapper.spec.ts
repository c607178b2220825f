// The Generate request as the engine's ChatGeneration: defaults, flattening, model limits.
import { status } from '@grpc/grpc-js';
import { GrpcStatusError, type GenerateRequest__Output } from '@tessera/contracts';
import { DEFAULT_SAMPLING_OPTIONS } from '@tessera/decoder';
import { chatGenerationOf } from './chat-generation.mapper';

const limits = { model: 'tiny', maxN: 4 };

function request(overrides: Partial<GenerateRequest__Output> = {}): GenerateRequest__Output {
  return {
    model: 'tiny',
    messages: [
      {
        role: 'user',
        content: [{ text: 'a' }, { text: 'b' }],
        name: '',
        tool_calls: [],
        tool_call_id: '',
      },
    ],
    tools: [],
    tool_choice: null,
    parallel_tool_calls: false,
    response_format: null,
    sampling: null,
    user: '',
    ...overrides,
  };
}

function refusal(run: () => unknown): GrpcStatusError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GrpcStatusError);
    return error as GrpcStatusError;
  }
  throw new Error('expected a refusal');
}

describe('chatGenerationOf', () => {
  it("fills in OpenAI's defaults for what the client left out", () => {
    expect(chatGenerationOf(request(), limits)).toEqual({
      messages: [{ role: 'user', content: 'a\nb' }],
      sampling: { ...DEFAULT_SAMPLING_OPTIONS, logitBias: {} },
      n: 1,
      maxTokens: undefined,
      stop: [],
      logprobs: false,
      topLogprobs: 0,
    });
  });

  it('keeps what the client set, the seed included', () => {
    const generation = chatGenerationOf(
      request({
        sampling: {
          temperature: 0,
          top_p: 0.5,
          top_k: 3,
          seed: 42,
          logit_bias: { 7: -100 },
          stop: ['x'],
          max_tokens: 9,
          logprobs: true,
          top_logprobs: 2,
          n: 3,
        },
      }),
      limits,
    );
    expect(generation).toMatchObject({
      sampling: { temperature: 0, topP: 0.5, topK: 3, seed: 42, logitBias: { 7: -100 } },
      n: 3,
      maxTokens: 9,
      stop: ['x'],
      logprobs: true,
      topLogprobs: 2,
    });
  });

  it('passes names, tool calls and tool results to the template', () => {
    const generation = chatGenerationOf(
      request({
        messages: [
          {
            role: 'assistant',
            content: [],
            name: 'bot',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
            tool_call_id: '',
          },
          { role: 'tool', content: [{ text: '42' }], name: '', tool_calls: [], tool_call_id: 'c1' },
        ],
      }),
      limits,
    );
    expect(generation.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        name: 'bot',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', content: '42', toolCallId: 'c1' },
    ]);
  });

  it('refuses more choices than the model gives, naming n', () => {
    const error = refusal(() =>
      chatGenerationOf(
        request({ sampling: { n: 5, logit_bias: {}, stop: [], logprobs: false, top_logprobs: 0 } }),
        limits,
      ),
    );
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.details).toEqual({ param: 'n', code: null });
  });

  it('refuses an image for a model without vision, naming the part', () => {
    const error = refusal(() =>
      chatGenerationOf(
        request({
          messages: [
            {
              role: 'user',
              content: [
                { text: 'look' },
                {
                  image: {
                    url: 'https://x/y.png',
                    detail: 'auto',
                    data: Buffer.alloc(0),
                    mime_type: '',
                  },
                },
              ],
              name: '',
              tool_calls: [],
              tool_call_id: '',
            },
          ],
        }),
        limits,
      ),
    );
    expect(error.details).toEqual({ param: 'messages[0].content[1]', code: 'image_not_supported' });
  });

  function imageMessage(data: Buffer, detail = 'low') {
    return {
      role: 'user',
      content: [
        { text: 'look' },
        { image: { url: '', detail, data, mime_type: 'image/png' } },
        { text: 'and say' },
      ],
      name: '',
      tool_calls: [],
      tool_call_id: '',
    };
  }

  it('keeps image parts in order for a model with vision', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const generation = chatGenerationOf(request({ messages: [imageMessage(bytes)] }), {
      ...limits,
      vision: true,
    });
    const [message] = generation.messages;
    expect(message.content).toBe('look\nand say');
    expect(message.parts).toEqual([
      { type: 'text', text: 'look' },
      {
        type: 'image',
        image: { data: new Uint8Array(bytes), mimeType: 'image/png', detail: 'low' },
      },
      { type: 'text', text: 'and say' },
    ]);
  });

  it('refuses an image part without bytes or with an unknown detail, naming it', () => {
    const vision = { ...limits, vision: true };
    const empty = refusal(() =>
      chatGenerationOf(request({ messages: [imageMessage(Buffer.alloc(0))] }), vision),
    );
    expect(empty.details).toEqual({ param: 'messages[0].content[1]', code: null });
    const detail = refusal(() =>
      chatGenerationOf(request({ messages: [imageMessage(Buffer.from([1]), 'huge')] }), vision),
    );
    expect(detail.details).toEqual({ param: 'messages[0].content[1].detail', code: null });
  });

  it('leaves text-only messages without parts', () => {
    const generation = chatGenerationOf(request(), { ...limits, vision: true });
    expect(generation.messages[0].parts).toBeUndefined();
  });
});
