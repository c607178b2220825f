// Long speech under load, end to end: a burst of long inputs at one voice. The speech service
// takes on only what the voice can synthesise within `max_backlog_seconds` at its measured rate
// and refuses the rest at once (429, the OpenAI body, Retry-After), before any audio; what it
// takes on is spoken to the end, although that takes far longer than the gateway's request
// timeout here: for a speech stream the timeout bounds the wait for each piece of audio, not
// the whole. Before, every request of the burst was admitted, the voice shared among all of
// them, and every one cut at the request timeout with its body unfinished.
import { expectOpenAIError } from './support/openai-error.expect';
import { QUIET_MODEL, speechModelsFile, useSpeechStack } from './support/speech-stack';
import { TEST_API_KEY } from './support/test-stack';

// Half a second of work at a time; a voice with nothing to do still takes one long input.
const stack = useSpeechStack(speechModelsFile({ max_backlog_seconds: '0.5' }), {
  // Far less than one long input takes to speak on the fixture voice (seconds), far more than
  // the wait for each piece of its audio.
  requestTimeoutMs: 3_000,
});

const BURST = 6;

/** About 2,000 characters of sentences: dozens of voice runs. */
const LONG_INPUT = Array.from(
  { length: 47 },
  (_, i) => `This is sentence number ${i + 1} of a long text.`,
).join(' ');

function post(body: object) {
  return fetch(`${stack().gateway.baseURL}/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: QUIET_MODEL, voice: 'alloy', input: LONG_INPUT, ...body }),
  });
}

interface Answer {
  status: number;
  headers: Headers;
  /** The whole body; a body cut short rejects (fetch's "terminated"), failing the test. */
  body: Buffer;
}

async function answer(body: object): Promise<Answer> {
  const response = await post(body);
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** Every refusal is the OpenAI 429 with a Retry-After of the work ahead. */
function expectRefused(refused: Answer[]) {
  for (const { status, headers, body } of refused) {
    expectOpenAIError({ status, body: JSON.parse(body.toString('utf8')) }, 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'rate_limit_error',
      message: /busy: \d+ characters of speech are ahead/,
    });
    expect(Number(headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(headers.get('retry-after-ms'))).toBeGreaterThan(0);
  }
}

describe('a burst of long speech requests at one voice', () => {
  let wholeAudio: Buffer;

  it('is refused 429 with Retry-After for what does not fit; what is taken on ends whole', async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => answer({ response_format: 'pcm' })),
    );
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(served.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expectRefused(refused);
    // The same input alone, with the noise at 0, is the same audio: each served body is whole.
    wholeAudio = (await answer({ response_format: 'pcm' })).body;
    expect(wholeAudio.length).toBeGreaterThan(0);
    for (const { body } of served) expect(body.length).toBe(wholeAudio.length);
  }, 120_000);

  it('as server-sent events: what is taken on ends with speech.audio.done', async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => answer({ response_format: 'pcm', stream_format: 'sse' })),
    );
    const served = answers.filter((a) => a.status === 200);
    expect(served.length).toBeGreaterThan(0);
    expect(served.length).toBeLessThan(BURST);
    expectRefused(answers.filter((a) => a.status !== 200));
    for (const { body } of served) {
      const events = body
        .toString('utf8')
        .split('\n\n')
        .filter((event) => event !== '')
        .map((event) => JSON.parse(event.slice('data: '.length)) as Record<string, string>);
      expect(events.at(-1)!.type).toBe('speech.audio.done');
      const audio = events
        .slice(0, -1)
        .map((event) => Buffer.from(event.audio, 'base64'))
        .reduce((sum, bytes) => sum + bytes.length, 0);
      expect(audio).toBe(wholeAudio.length);
    }
  }, 120_000);
});
