// /v1/audio/speech end to end: the official SDK and raw HTTP → gateway → gRPC → speech service →
// espeak-ng phonemes → ONNX Runtime on the tiny random-weight fixture voices → ffmpeg, every
// file then read back by ffprobe. Random weights speak no words; what is checked is the voice
// map, the formats, speed, streaming, the events and cancellation. Most tests use a copy of the
// multi-speaker fixture voice with its noise scales at 0 (QUIET_MODEL), so that one
// request always gives the same audio and a difference means the request differed.
import { probeAudio, SPEECH_OUTPUT_SAMPLE_RATE } from '@tessera/audio';
import type { AudioFormat } from '@tessera/contracts';
import { expectSchema } from './support/openai-schemas';
import {
  QUIET_MODEL,
  serviceCounter,
  settledReading,
  useSpeechStack,
  type SpeechStack,
} from './support/speech-stack';
import { TEST_API_KEY } from './support/test-stack';

const SEED_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'] as const;
const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
const stack = useSpeechStack();

/** 16-bit mono at 24 kHz: two bytes a sample. */
const pcmSeconds = (pcm: Buffer) => pcm.length / 2 / SPEECH_OUTPUT_SAMPLE_RATE;

async function speak(
  params: Partial<Parameters<SpeechStack['gateway']['client']['audio']['speech']['create']>[0]>,
) {
  const response = await stack().gateway.client.audio.speech.create({
    model: QUIET_MODEL,
    voice: 'alloy',
    input: SENTENCE,
    ...params,
  });
  return {
    contentType: response.headers.get('content-type'),
    audio: Buffer.from(await response.arrayBuffer()),
  };
}

/** `count` sentences, each its own voice run. */
const sentences = (count: number) =>
  Array.from({ length: count }, (_, i) => `This is sentence number ${i + 1} of the test.`).join(
    ' ',
  );

/** POSTs with fetch, so that a test can watch the body arrive and stop reading or leave. */
function post(body: unknown, signal?: AbortSignal) {
  return fetch(`${stack().gateway.baseURL}/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

const voiceRuns = () => serviceCounter(stack(), 'tessera_speech_voice_runs_total');

describe('POST /v1/audio/speech', () => {
  it('lists the voices of a speech model in GET /v1/models', async () => {
    const model = (await stack().gateway.client.models.retrieve('tts-1')) as unknown as {
      capabilities: string[];
      voices: string[];
    };
    expect(model.capabilities).toEqual(['speech']);
    expect(model.voices).toEqual(expect.arrayContaining([...SEED_VOICES]));
    expect([...model.voices].sort()).toEqual(model.voices);
  });

  it('speaks each seed voice as its own speaker, the same voice always alike', async () => {
    const spoken = new Map<string, Buffer>();
    for (const voice of SEED_VOICES) {
      const { contentType, audio } = await speak({ voice, response_format: 'pcm' });
      expect(contentType).toBe('audio/pcm');
      expect(audio.length % 2).toBe(0);
      expect(pcmSeconds(audio)).toBeGreaterThan(0.1);
      // Not silence: some sample is far from zero (the voice's audio is peak-normalised).
      const samples = new Int16Array(audio.buffer, audio.byteOffset, audio.length / 2);
      expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(1000);
      spoken.set(voice, audio);
    }
    expect((await speak({ voice: 'alloy', response_format: 'pcm' })).audio).toEqual(
      spoken.get('alloy'),
    );
    for (const [i, a] of SEED_VOICES.entries()) {
      for (const b of SEED_VOICES.slice(i + 1)) {
        expect({ pair: [a, b], same: spoken.get(a)!.equals(spoken.get(b)!) }).toEqual({
          pair: [a, b],
          same: false,
        });
      }
    }
  });

  it('answers to tts-1, tts-1-hd and gpt-4o-mini-tts with every seed voice (noise on)', async () => {
    for (const model of ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']) {
      for (const voice of SEED_VOICES) {
        const { contentType, audio } = await speak({ model, voice });
        expect(contentType).toBe('audio/mpeg');
        const probe = await probeAudio(audio);
        expect(probe).toMatchObject({ codecName: 'mp3', sampleRate: 24000, channels: 1 });
        expect(probe.durationSeconds).toBeGreaterThan(0.1);
      }
    }
  });

  it('takes the voice object form as the voice it names', async () => {
    const named = await speak({ voice: 'nova', response_format: 'pcm' });
    const object = await speak({ voice: { id: 'nova' }, response_format: 'pcm' });
    expect(object.audio).toEqual(named.audio);
  });

  const FORMATS: Array<[AudioFormat, string, string]> = [
    ['mp3', 'audio/mpeg', 'mp3'],
    ['opus', 'audio/ogg', 'opus'],
    ['aac', 'audio/aac', 'aac'],
    ['flac', 'audio/flac', 'flac'],
    ['wav', 'audio/wav', 'pcm_s16le'],
  ];
  it.each(FORMATS)(
    '%s: content-type %s, codec %s at 24 kHz mono, as long as the pcm of the same request',
    async (format, contentType, codec) => {
      const pcm = (await speak({ response_format: 'pcm' })).audio;
      const encoded = await speak({ response_format: format });
      expect(encoded.contentType).toBe(contentType);
      const probe = await probeAudio(encoded.audio);
      expect(probe.codecName).toBe(codec);
      expect(probe.channels).toBe(1);
      if (format === 'opus') {
        // Opus always decodes at 48 kHz; what the encoder was given is in its header.
        expect(probe.sampleRate).toBe(48000);
        expect(probe.opusInputSampleRate).toBe(SPEECH_OUTPUT_SAMPLE_RATE);
      } else {
        expect(probe.sampleRate).toBe(SPEECH_OUTPUT_SAMPLE_RATE);
      }
      // Lossy codecs pad to whole frames (and mp3/aac add the encoder's delay): a tenth of a
      // second at most on either side.
      expect(Math.abs(probe.durationSeconds - pcmSeconds(pcm))).toBeLessThan(0.1);
    },
  );

  it('sends mp3 when no response_format is given, and the same samples in wav as in pcm', async () => {
    expect((await speak({})).contentType).toBe('audio/mpeg');
    const pcm = (await speak({ response_format: 'pcm' })).audio;
    const wav = (await speak({ response_format: 'wav' })).audio;
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const data = wav.indexOf('data', 12, 'latin1');
    expect(data).toBeGreaterThan(0);
    expect(wav.subarray(data + 8)).toEqual(pcm);
  });

  it('speaks slower and faster with speed', async () => {
    const seconds = async (speed: number) =>
      pcmSeconds((await speak({ speed, response_format: 'pcm' })).audio);
    const normal = await seconds(1);
    // The voice rounds each phoneme's length up to whole frames, and the tiny fixture voice
    // gives few frames a phoneme, so faster speech shortens by less than the factor.
    expect(await seconds(0.5)).toBeGreaterThan(1.6 * normal);
    expect(await seconds(2)).toBeLessThan(0.8 * normal);
    expect(await seconds(0.25)).toBeGreaterThan(await seconds(0.5));
    expect(await seconds(4)).toBeLessThan(await seconds(2));
  });

  it('streams the audio as it is made: the first bytes come while synthesis is still going', async () => {
    const count = 40;
    const before = await voiceRuns();
    // Slow speech in raw pcm: far more audio than the socket, HTTP/2 and pipe buffers hold.
    const response = await post({
      model: QUIET_MODEL,
      voice: 'echo',
      input: sentences(count),
      speed: 0.25,
      response_format: 'pcm',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    // The client reads no more for now: the service stops once the buffers between are full,
    // having made some of the sentences but not all of them.
    const paused = (await settledReading(voiceRuns)) - before;
    expect(paused).toBeGreaterThan(0);
    expect(paused).toBeLessThan(count);
    let bytes = first.value!.length;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      bytes += read.value.length;
    }
    expect((await voiceRuns()) - before).toBeGreaterThanOrEqual(count);
    expect(bytes % 2).toBe(0);
  });

  it('stops synthesising when the client goes away', async () => {
    const count = 40;
    const cancelled = () =>
      serviceCounter(stack(), 'tessera_grpc_server_handled_total', {
        method: 'tessera.v1.Speech/Synthesize',
        code: 'CANCELLED',
      });
    const [runsBefore, cancelledBefore] = [await voiceRuns(), await cancelled()];
    const abort = new AbortController();
    const response = await post(
      {
        model: QUIET_MODEL,
        voice: 'fable',
        input: sentences(count),
        speed: 0.25,
        response_format: 'pcm',
      },
      abort.signal,
    );
    await response.body!.getReader().read();
    abort.abort();
    expect(await settledReading(cancelled)).toBe(cancelledBefore + 1);
    // No run starts after the cancellation: the count settles short of the sentences.
    expect((await settledReading(voiceRuns)) - runsBefore).toBeLessThan(count);
  });
});

describe('POST /v1/audio/speech with stream_format "sse"', () => {
  it("sends the spec's delta events, then done with the usage; the deltas are the audio", async () => {
    const audio = (await speak({ input: sentences(3), response_format: 'mp3' })).audio;
    const response = await stack().gateway.client.audio.speech.create({
      model: QUIET_MODEL,
      voice: 'alloy',
      input: sentences(3),
      response_format: 'mp3',
      stream_format: 'sse',
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text();
    expect(text.endsWith('\n\n')).toBe(true);
    const events = text
      .slice(0, -2)
      .split('\n\n')
      .map((event) => {
        expect(event.startsWith('data: ')).toBe(true);
        const parsed: unknown = JSON.parse(event.slice('data: '.length));
        expectSchema('CreateSpeechResponseStreamEvent', parsed);
        return parsed as { type: string; audio?: string; usage?: Record<string, number> };
      });
    const deltas = events.slice(0, -1);
    const done = events.at(-1)!;
    // Sentence by sentence: more than one piece of audio for three sentences.
    expect(deltas.length).toBeGreaterThan(1);
    for (const delta of deltas) expectSchema('SpeechAudioDeltaEvent', delta);
    expectSchema('SpeechAudioDoneEvent', done);
    expect(Buffer.concat(deltas.map((delta) => Buffer.from(delta.audio!, 'base64')))).toEqual(
      audio,
    );
    const { input_tokens, output_tokens, total_tokens } = done.usage!;
    expect(input_tokens).toBeGreaterThan(0);
    expect(output_tokens).toBeGreaterThan(0);
    expect(total_tokens).toBe(input_tokens + output_tokens);
  });
});
