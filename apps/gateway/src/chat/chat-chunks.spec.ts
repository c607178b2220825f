// Generate frames → OpenAI chunks and the whole completion, without a server.
import type { GenerateResponse__Output } from '@tessera/contracts';
import { ChatChunkMapper } from './chat-chunks';
import { aggregateCompletion } from './chat-completion.aggregate';

const identity = { id: 'chatcmpl-x', created: 1, model: 'm', system_fingerprint: 'fp_1' };
const logprob = { token: 'a', logprob: -0.5, bytes: Buffer.from('a'), top_logprobs: [] };

const delta = (
  choice: number,
  content: string,
  logprobs = [logprob],
): GenerateResponse__Output => ({
  choice_index: choice,
  delta: { role: '', content, tool_calls: [], logprobs, tokens: 1, prompt_tokens: 0 },
  frame: 'delta',
});
const finish = (choice: number, reason: string, usage = false): GenerateResponse__Output => ({
  choice_index: choice,
  finish: {
    finish_reason: reason,
    usage: usage ? { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } : null,
  },
  frame: 'finish',
});

const frames = [
  delta(0, 'a'),
  delta(1, 'b'),
  delta(0, ''),
  finish(1, 'length'),
  finish(0, 'stop', true),
];

async function* iterate<T>(items: T[]) {
  yield* items;
}

describe('ChatChunkMapper', () => {
  it('starts each choice with the role, ends it with one finish, then the usage chunk', () => {
    const mapper = new ChatChunkMapper(identity, { includeUsage: true, logprobs: false });
    const chunks = frames.flatMap((frame) => mapper.chunksOf(frame));
    const summary = chunks.map((chunk) =>
      chunk.choices.length === 0
        ? `usage ${chunk.usage?.total_tokens}`
        : `${chunk.choices[0].index} ${JSON.stringify(chunk.choices[0].delta)} ${chunk.choices[0].finish_reason}`,
    );
    expect(summary).toEqual([
      '0 {"role":"assistant","content":"","refusal":null} null',
      '0 {"content":"a"} null',
      '1 {"role":"assistant","content":"","refusal":null} null',
      '1 {"content":"b"} null',
      '0 {"content":""} null', // a delta with only logprobs (text held back) still carries them
      '1 {} length',
      '0 {} stop',
      'usage 5',
    ]);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ ...identity, object: 'chat.completion.chunk' });
      expect(chunk.usage === null || chunk.choices.length === 0).toBe(true);
    }
  });

  it('leaves usage out without include_usage and carries logprobs when asked', () => {
    const mapper = new ChatChunkMapper(identity, { includeUsage: false, logprobs: true });
    const chunks = frames.flatMap((frame) => mapper.chunksOf(frame));
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    expect(chunks[1].choices[0].logprobs).toEqual({
      content: [{ token: 'a', logprob: -0.5, bytes: [97], top_logprobs: [] }],
      refusal: null,
    });
    expect(chunks[0].choices[0].logprobs).toBeNull();
  });

  it('skips an empty delta without logprobs', () => {
    const mapper = new ChatChunkMapper(identity, { includeUsage: false, logprobs: false });
    mapper.chunksOf(delta(0, 'a', []));
    expect(mapper.chunksOf(delta(0, '', []))).toEqual([]);
  });
});

describe('aggregateCompletion', () => {
  it('joins each choice and takes the usage of the last frame', async () => {
    const completion = await aggregateCompletion(iterate(frames), identity, {
      n: 2,
      logprobs: true,
    });
    expect(completion).toEqual({
      ...identity,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'a', refusal: null },
          logprobs: { content: expect.any(Array), refusal: null },
          finish_reason: 'stop',
        },
        {
          index: 1,
          message: { role: 'assistant', content: 'b', refusal: null },
          logprobs: { content: expect.any(Array), refusal: null },
          finish_reason: 'length',
        },
      ],
      usage: expect.objectContaining({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }),
    });
    expect(completion.choices[0].logprobs?.content).toHaveLength(2);
  });

  it('fails when a choice never finished (the service broke its contract)', async () => {
    await expect(
      aggregateCompletion(iterate([delta(0, 'a')]), identity, { n: 1, logprobs: false }),
    ).rejects.toThrow('did not finish choice 0');
  });
});

describe('tool calls', () => {
  /** A frame with pieces of tool calls, as the service sends them (proto3: '' when unset). */
  const calls = (
    choice: number,
    ...pieces: { index: number; id?: string; name?: string; arguments: string }[]
  ): GenerateResponse__Output => ({
    choice_index: choice,
    delta: {
      role: '',
      content: '',
      tokens: 1,
      prompt_tokens: 0,
      tool_calls: pieces.map((piece) => ({
        index: piece.index,
        id: piece.id ?? '',
        type: piece.id ? 'function' : '',
        name: piece.name ?? '',
        arguments: piece.arguments,
      })),
      logprobs: [],
    },
    frame: 'delta',
  });
  const toolFrames = [
    calls(0, { index: 0, id: 'call_a', name: 'get_weather', arguments: '' }),
    calls(0, { index: 0, arguments: '{"city": ' }),
    calls(0, { index: 0, arguments: '"Paris"}' }),
    calls(0, { index: 1, id: 'call_b', name: 'get_time', arguments: '{}' }),
    finish(0, 'tool_calls', true),
  ];

  it('stream as deltas keyed by index: id, type and name first, then arguments', () => {
    const mapper = new ChatChunkMapper(identity, { includeUsage: false, logprobs: false });
    const deltas = toolFrames.flatMap((frame) =>
      mapper
        .chunksOf(frame)
        .map((chunk) => [chunk.choices[0].delta, chunk.choices[0].finish_reason]),
    );
    expect(deltas).toEqual([
      [{ role: 'assistant', content: '', refusal: null }, null],
      [
        {
          tool_calls: [
            {
              index: 0,
              id: 'call_a',
              type: 'function',
              function: { name: 'get_weather', arguments: '' },
            },
          ],
        },
        null,
      ],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"city": ' } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, null],
      [
        {
          tool_calls: [
            {
              index: 1,
              id: 'call_b',
              type: 'function',
              function: { name: 'get_time', arguments: '{}' },
            },
          ],
        },
        null,
      ],
      [{}, 'tool_calls'],
    ]);
  });

  it('are assembled in a whole completion, with content null when there is no text', async () => {
    const completion = await aggregateCompletion(iterate(toolFrames), identity, {
      n: 1,
      logprobs: false,
    });
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city": "Paris"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
  });

  it('keep the text said before the calls', async () => {
    const completion = await aggregateCompletion(
      iterate([delta(0, 'Let me check.', []), ...toolFrames]),
      identity,
      { n: 1, logprobs: false },
    );
    expect(completion.choices[0].message.content).toBe('Let me check.');
    expect(completion.choices[0].message.tool_calls).toHaveLength(2);
  });

  it('fail on pieces out of order (the service broke its contract)', async () => {
    const options = { n: 1, logprobs: false };
    await expect(
      aggregateCompletion(iterate([calls(0, { index: 0, arguments: '{}' })]), identity, options),
    ).rejects.toThrow('continued tool call 0 before its start');
    await expect(
      aggregateCompletion(
        iterate([calls(0, { index: 1, id: 'c', name: 'f', arguments: '' })]),
        identity,
        options,
      ),
    ).rejects.toThrow('opened tool call 1 after 0');
  });
});
