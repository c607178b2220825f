// DecoderModel end to end through real worker threads on the tiny Llama: streamed events,
// usage, the checks made before queueing, and greedy output against a bare ONNX Runtime loop.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadChatTokenizer } from '@tessera/text';
import { TINY_LLAMA } from '../test/tiny-models';
import { ContextLengthExceededError, LogitBiasTokenError } from './decoder.errors';
import { DecoderModel } from './decoder.model';
import type { ChatGeneration, GenerationEvent, PromptMessage } from './decoder.protocol';

const GREEDY: ChatGeneration['sampling'] = {
  temperature: 0,
  topP: 1,
  topK: 0,
  minP: 0,
  presencePenalty: 0,
  frequencyPenalty: 0,
  repetitionPenalty: 1,
  logitBias: {},
};
const MESSAGES: PromptMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Name three colours.' },
];

function generation(extra: Partial<ChatGeneration> = {}): ChatGeneration {
  return {
    messages: MESSAGES,
    sampling: GREEDY,
    n: 1,
    maxTokens: 16,
    stop: [],
    logprobs: false,
    topLogprobs: 0,
    ...extra,
  };
}

/**
 * Greedy ids from a plain onnxruntime-node loop (full attention mask, no batching), in a child
 * process: onnxruntime-node checks typed arrays with `instanceof`, which jest's realm breaks.
 */
function bareGreedy(promptIds: number[], steps: number): number[] {
  const script = `
const { InferenceSession, Tensor } = require('onnxruntime-node');
(async () => {
  const session = await InferenceSession.create(${JSON.stringify(join(TINY_LLAMA, 'onnx', 'model.onnx'))});
  const int64 = (values, dims) => new Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
  let ids = ${JSON.stringify(promptIds)};
  let past = {};
  for (let layer = 0; layer < 2; layer++) for (const kind of ['key', 'value'])
    past['past_key_values.' + layer + '.' + kind] = new Tensor('float32', new Float32Array(0), [1, 2, 0, 16]);
  let seen = 0;
  const out = [];
  for (let step = 0; step < ${steps}; step++) {
    const total = seen + ids.length;
    const result = await session.run({
      input_ids: int64(ids, [1, ids.length]),
      attention_mask: int64(new Array(total).fill(1), [1, total]),
      position_ids: int64(ids.map((_, i) => seen + i), [1, ids.length]),
      ...past,
    });
    const vocab = result.logits.dims[2];
    const last = result.logits.data.subarray((ids.length - 1) * vocab);
    let best = 0;
    for (let i = 1; i < vocab; i++) if (last[i] > last[best]) best = i;
    out.push(best);
    for (const name of Object.keys(past)) past[name] = result[name.replace('past_key_values', 'present')];
    seen = total;
    ids = [best];
  }
  process.stdout.write(JSON.stringify(out));
})();`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as number[];
}

async function collect(stream: AsyncIterable<GenerationEvent>): Promise<GenerationEvent[]> {
  const events: GenerationEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('DecoderModel', () => {
  let model: DecoderModel;

  beforeAll(async () => {
    model = await DecoderModel.load({
      modelDir: TINY_LLAMA,
      options: { max_sequences: 4, context_length: 64 },
    });
  });
  afterAll(() => model.close());

  it('reports the model', () => {
    expect(model.info).toEqual({ contextLength: 64, vocabSize: 49152, eosTokenIds: [2], maxN: 4 });
  });

  it('streams the same greedy text as a bare onnxruntime-node loop, then usage', async () => {
    const tokenizer = await loadChatTokenizer(TINY_LLAMA);
    const promptIds = tokenizer.encodeChat(MESSAGES);
    const ids = bareGreedy(promptIds, 16);
    const expected = ids.map((id) => tokenizer.tokenInfo(id).token).join('');
    const stream = model.generate(generation({ logprobs: true }));
    const events = await collect(stream);
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.map((e) => e.text).join('')).toBe(expected);
    expect(
      deltas
        .flatMap((e) => e.logprobs ?? [])
        .map((l) => l.token)
        .join(''),
    ).toBe(expected);
    expect(events.at(-1)).toEqual({
      type: 'finish',
      choice: 0,
      reason: 'length',
      completionTokens: 16,
    });
    await expect(stream.usage).resolves.toEqual({
      promptTokens: promptIds.length,
      completionTokens: 16,
    });
  });

  it('runs many generations at once, each with its own choices', async () => {
    const streams = [1, 2, 3].map((n) =>
      model.generate(generation({ n: n === 3 ? 1 : n, maxTokens: 4 + n })),
    );
    const all = await Promise.all(streams.map(collect));
    expect(all.map((events) => events.filter((e) => e.type === 'finish').length)).toEqual([
      1, 2, 1,
    ]);
    await expect(streams[1].usage).resolves.toMatchObject({ completionTokens: 12 });
  });

  it('runs to the end of the context when no max tokens are given', async () => {
    const stream = model.generate(generation({ maxTokens: undefined }));
    await collect(stream);
    const usage = await stream.usage;
    expect(usage.promptTokens + usage.completionTokens).toBe(64);
  });

  it('refuses a prompt and output beyond the context, and logit_bias ids beyond the vocabulary', () => {
    expect(() => model.generate(generation({ maxTokens: 60 }))).toThrow(ContextLengthExceededError);
    expect(() => model.generate(generation({ maxTokens: 60 }))).toThrow(
      /64 tokens.*requested \d+ tokens/,
    );
    const long = [{ role: 'user' as const, content: 'word '.repeat(80) }];
    expect(() => model.generate(generation({ messages: long, maxTokens: undefined }))).toThrow(
      /64 tokens.*resulted in \d+ tokens/,
    );
    const bias = { ...GREEDY, logitBias: { 49152: 1 } };
    expect(() => model.generate(generation({ sampling: bias }))).toThrow(LogitBiasTokenError);
  });

  it('cancels the generation when the reader leaves early', async () => {
    const stream = model.generate(generation({ maxTokens: 40 }));
    for await (const event of stream) {
      expect(event.type).toBe('delta');
      break;
    }
    await expect(stream.usage).rejects.toThrow(/left before/);
    // The worker is free for the next one.
    await expect(collect(model.generate(generation({ maxTokens: 2 })))).resolves.toHaveLength(3);
  });
});
