// Every request traced in a real Jaeger v2. The stack runs as separate processes (the launcher
// of `npm run start:fixtures`) exporting OTLP to Jaeger; each capability is called once through
// the gateway with the official openai SDK and an `x-request-id` of its own; Jaeger's query API
// must then hold, per request, exactly one trace that links the gateway's HTTP span, its gRPC
// client span, the service's gRPC server span and the model run, with the GenAI attributes and
// the request id: what a user finds in the Jaeger UI by searching `tessera.request_id=<id>`.
import { randomUUID } from 'node:crypto';
import OpenAI, { toFile } from 'openai';
import { testAudio } from '../support/transcription-stack';
import { Jaeger, parentIdOf, serviceOf, tagOf, type JaegerSpan, type JaegerTrace } from './jaeger';
import { LaunchedStack } from './launched-stack';

const KEY = 'tsk-tracing-test';

let jaeger: Jaeger;
let stack: LaunchedStack;
let client: OpenAI;

beforeAll(async () => {
  jaeger = await Jaeger.start();
  stack = await LaunchedStack.start({
    TESSERA_API_KEYS: KEY,
    OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  client = new OpenAI({ apiKey: KEY, baseURL: stack.baseURL, maxRetries: 0 });
}, 480_000);

afterAll(async () => {
  await stack?.stop();
  await jaeger?.stop();
});

/** What one capability's request must leave in Jaeger. */
interface Capability {
  route: string;
  /** The gRPC method the gateway calls (both spans' name). */
  method: string;
  service: string;
  /** The name the request sends (an alias) and the model id it resolves to. */
  model: string;
  resolvedModel: string;
  operation: string;
  /** Sends the request with `headers`; resolves to the token counts its answer reported. */
  send: (headers: Record<string, string>) => Promise<Record<string, number>>;
}

const CAPABILITIES: Record<string, Capability> = {
  chat: {
    route: 'POST /v1/chat/completions',
    method: 'tessera.v1.Chat/Generate',
    service: 'tessera-chat',
    model: 'gpt-4o-mini',
    resolvedModel: 'tiny-llama',
    operation: 'chat',
    send: async (headers) => {
      const stream = await client.chat.completions.create(
        {
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Where did this request go?' }],
          max_tokens: 8,
          stream: true,
          stream_options: { include_usage: true },
        },
        { headers },
      );
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) usage = chunk.usage ?? usage;
      return {
        'gen_ai.usage.input_tokens': usage!.prompt_tokens,
        'gen_ai.usage.output_tokens': usage!.completion_tokens,
      };
    },
  },
  embeddings: {
    route: 'POST /v1/embeddings',
    method: 'tessera.v1.Embeddings/Embed',
    service: 'tessera-embeddings',
    model: 'text-embedding-3-small',
    resolvedModel: 'tiny-bert',
    operation: 'embeddings',
    send: async (headers) => {
      const response = await client.embeddings.create(
        { model: 'text-embedding-3-small', input: ['trace me', 'and me'] },
        { headers },
      );
      return { 'gen_ai.usage.input_tokens': response.usage.prompt_tokens };
    },
  },
  moderation: {
    route: 'POST /v1/moderations',
    method: 'tessera.v1.Moderation/Classify',
    service: 'tessera-moderation',
    model: 'omni-moderation-latest',
    resolvedModel: 'tiny-moderation',
    operation: 'moderation',
    send: async (headers) => {
      const response = await client.moderations.create(
        { model: 'omni-moderation-latest', input: 'a perfectly harmless sentence' },
        { headers },
      );
      expect(response.results).toHaveLength(1);
      return {}; // moderation reports no usage
    },
  },
  speech: {
    route: 'POST /v1/audio/speech',
    method: 'tessera.v1.Speech/Synthesize',
    service: 'tessera-speech',
    model: 'tts-1',
    resolvedModel: 'tiny-piper',
    operation: 'speech',
    send: async (headers) => {
      const response = await client.audio.speech.create(
        { model: 'tts-1', voice: 'alloy', input: 'Trace this sentence.', response_format: 'wav' },
        { headers },
      );
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(44);
      return {}; // the SDK hands back the audio only; the counts are checked to be there
    },
  },
  transcription: {
    route: 'POST /v1/audio/transcriptions',
    method: 'tessera.v1.Transcription/Transcribe',
    service: 'tessera-transcription',
    model: 'whisper-1',
    resolvedModel: 'tiny-whisper',
    operation: 'transcription',
    send: async (headers) => {
      const wav = await testAudio('wav', 1);
      const response = await client.audio.transcriptions.create(
        {
          file: await toFile(wav, 'clip.wav', { type: 'audio/wav' }),
          model: 'whisper-1',
          temperature: 0,
        },
        { headers },
      );
      expect(typeof response.text).toBe('string');
      return {};
    },
  },
};

/** Token attributes each capability's server span carries, whether or not the answer shows them. */
const TOKEN_ATTRIBUTES: Record<string, string[]> = {
  chat: ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens'],
  embeddings: ['gen_ai.usage.input_tokens'],
  moderation: ['gen_ai.usage.input_tokens'],
  speech: ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens'],
  transcription: ['gen_ai.usage.output_tokens'],
};

/** The four spans of one request, found by their place in the trace (undefined when missing). */
function requestSpans(trace: JaegerTrace, capability: Capability) {
  const find = (service: string, name: string, kind: string | null, parent?: JaegerSpan) =>
    trace.spans.find(
      (span) =>
        serviceOf(trace, span) === service &&
        span.operationName === name &&
        (kind === null || tagOf(span, 'span.kind') === kind) &&
        (parent === undefined || parentIdOf(span) === parent.spanID),
    );
  const http = find('tessera-gateway', capability.route, 'server');
  const client = http && find('tessera-gateway', capability.method, 'client', http);
  const server = client && find(capability.service, capability.method, 'server', client);
  const run = server && find(capability.service, 'onnxruntime.run', null, server);
  return { http, client, server, run };
}

describe.each(Object.keys(CAPABILITIES))('%s', (name) => {
  const capability = CAPABILITIES[name];

  it('leaves one trace, found by its x-request-id: HTTP → gRPC client → gRPC server → model run', async () => {
    const requestId = `tracing-${name}-${randomUUID()}`;
    const reported = await capability.send({ 'x-request-id': requestId });

    // The search the README describes: the gateway's service, tag tessera.request_id.
    const traces = await jaeger.waitForTraces(
      'tessera-gateway',
      { 'tessera.request_id': requestId },
      (found) =>
        found.length > 0 && Object.values(requestSpans(found[0], capability)).every(Boolean),
    );
    expect(traces).toHaveLength(1);
    const { http, client, server, run } = requestSpans(traces[0], capability);
    expect({ http: !!http, client: !!client, server: !!server, run: !!run }).toEqual({
      http: true,
      client: true,
      server: true,
      run: true,
    });

    expect(tagOf(http!, 'tessera.request_id')).toBe(requestId);
    expect(tagOf(http!, 'gen_ai.request.model')).toBe(capability.model);
    expect(tagOf(http!, 'http.response.status_code')).toBe(200);
    expect(tagOf(client!, 'rpc.grpc.status_code')).toBe(0);

    expect(tagOf(server!, 'tessera.request_id')).toBe(requestId);
    // The gateway resolves the alias: the service is asked for the model's own id.
    expect(tagOf(server!, 'gen_ai.request.model')).toBe(capability.resolvedModel);
    expect(tagOf(server!, 'gen_ai.response.model')).toBe(capability.resolvedModel);
    for (const attribute of TOKEN_ATTRIBUTES[name]) {
      expect(tagOf(server!, attribute)).toEqual(expect.any(Number));
    }
    // Where the answer told the caller its usage, the span says the same.
    for (const [attribute, count] of Object.entries(reported)) {
      expect(tagOf(server!, attribute)).toBe(count);
    }

    expect(tagOf(run!, 'gen_ai.operation.name')).toBe(capability.operation);
    expect(tagOf(run!, 'gen_ai.response.model')).toBe(capability.resolvedModel);
  }, 300_000);
});
