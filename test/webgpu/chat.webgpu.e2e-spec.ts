// Chat on the WebGPU provider decodes what the CPU provider decodes, through the whole stack, for
// the fixture decoder's plain export and its GroupQueryAttention export: greedy, the
// end-of-sequence token barred, 32 steps, the same tokens and logprobs within 1e-3 — a request
// alone, whole and streamed; requests that join and leave a continuous batch at different steps;
// and a JSON-schema request, whose output must validate.
import { STRUCTURED_CASES } from '../support/structured-schemas';
import { expectValidJson } from '../support/structured-output.check';
import {
  StreamedDecode,
  decodedOf,
  endOfSequenceOf,
  fixtureConversations,
  greedyParams,
  type Decoded,
  type Message,
} from './greedy-decode';
import { onWebgpu, useWebgpuStack } from './webgpu-stack';

const CHAT = 'tiny-llama';
/** The exports compared, by the id of their CPU entry (models.webgpu.yaml). */
const EXPORTS = [
  ['plain attention', CHAT],
  ['GroupQueryAttention', 'tiny-llama-gqa'],
] as const;
const STEPS = 32;
/** The bar of the suite (docs/gpu.md, "Verification"). */
const MAX_LOGPROB_DELTA = 1e-3;

const stack = useWebgpuStack(['chat']);
const client = () => stack().client;
const conversations = fixtureConversations(CHAT);
const endOfSequence = endOfSequenceOf(CHAT);

function whole(model: string, messages: Message[], maxTokens = STEPS): Promise<Decoded> {
  return client()
    .chat.completions.create({
      ...greedyParams(model, endOfSequence),
      messages,
      max_tokens: maxTokens,
    })
    .then(decodedOf);
}

async function streamed(
  model: string,
  messages: Message[],
  maxTokens = STEPS,
): Promise<StreamedDecode> {
  const stream = await client().chat.completions.create({
    ...greedyParams(model, endOfSequence),
    messages,
    max_tokens: maxTokens,
    stream: true,
  });
  return new StreamedDecode(stream);
}

let largestDelta = 0;

/** Tokens equal to the reference's first `steps`, logprobs within the bar. */
function expectSameDecode(actual: Decoded, expected: Decoded, steps: number): void {
  expect(actual.tokens).toEqual(expected.tokens.slice(0, steps));
  expect(actual.finishReason).toBe('length');
  const deltas = actual.logprobs.map((logprob, i) => Math.abs(logprob - expected.logprobs[i]));
  const largest = Math.max(...deltas);
  largestDelta = Math.max(largestDelta, largest);
  expect(largest).toBeLessThanOrEqual(MAX_LOGPROB_DELTA);
}

afterAll(() => {
  console.log(`chat: largest |logprob delta| webgpu/cpu ${largestDelta}`);
});

describe.each(EXPORTS)('%s (%s)', (_, cpuModel) => {
  const webgpuModel = onWebgpu(cpuModel);
  /** Each conversation decoded alone on the CPU provider: what webgpu must reproduce. */
  let references: Decoded[];

  beforeAll(async () => {
    references = [];
    for (const messages of conversations) references.push(await whole(cpuModel, messages));
    for (const reference of references) {
      expect(reference.tokens).toHaveLength(STEPS);
      expect(reference.finishReason).toBe('length');
    }
  }, 120_000);

  it.each(conversations.map((messages, index) => [index, messages] as const))(
    `conversation %i alone decodes the CPU's ${STEPS} tokens, whole and streamed`,
    async (index, messages) => {
      const reference = references[index];
      const alone = await whole(webgpuModel, messages);
      expectSameDecode(alone, reference, STEPS);
      expect(alone.content).toBe(reference.content);
      const stream = await (await streamed(webgpuModel, messages)).done;
      expectSameDecode(stream, reference, STEPS);
      expect(stream.content).toBe(reference.content);
    },
  );

  it('requests that join and leave a continuous batch each decode the CPU’s tokens', async () => {
    // A: the longest, alone at first. B joins at A's 4th token and, the shortest, leaves first;
    // C (not streamed) joins at B's 4th; D joins once B has left, while A still decodes.
    const a = await streamed(webgpuModel, conversations[0], STEPS);
    await a.tokensReached(4);
    expect(a.finished).toBe(false);
    const b = await streamed(webgpuModel, conversations[1], 10);
    await b.tokensReached(4);
    expect(a.finished).toBe(false);
    const c = whole(webgpuModel, conversations[2], 24);
    const bDone = await b.done;
    expect(a.finished).toBe(false);
    const d = await streamed(webgpuModel, conversations[1], 16);
    const results: [Decoded, number, number][] = [
      [await a.done, 0, STEPS],
      [bDone, 1, 10],
      [await c, 2, 24],
      [await d.done, 1, 16],
    ];
    for (const [decoded, conversation, steps] of results) {
      expect(decoded.tokens).toHaveLength(steps);
      expectSameDecode(decoded, references[conversation], steps);
    }
  });
});

describe('a JSON-schema request', () => {
  const schemaCase = STRUCTURED_CASES.find(({ name }) => name === 'person')!;

  it('is valid on webgpu, and the CPU writes the same', async () => {
    const request = (model: string) =>
      client().chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'You answer in JSON only.' },
          { role: 'user', content: 'Fill in the person record.' },
        ],
        temperature: 0,
        max_tokens: schemaCase.maxTokens,
        response_format: {
          type: 'json_schema',
          json_schema: { name: schemaCase.name, schema: schemaCase.schema, strict: true },
        },
      });
    const webgpu = await request(onWebgpu(CHAT));
    expect(webgpu.choices[0].finish_reason).toBe('stop');
    expectValidJson(webgpu.choices[0].message.content, schemaCase.schema);
    const cpu = await request(CHAT);
    expect(webgpu.choices[0].message.content).toBe(cpu.choices[0].message.content);
  });
});
