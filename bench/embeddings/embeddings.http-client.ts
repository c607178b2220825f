// The candidate's client: POST /v1/embeddings with one input string per request and
// `encoding_format: base64` (what the OpenAI SDK sends by default), over the benchmarks' traced
// keep-alive HTTP client.
import type { RequestRecorder } from '../lib/request.trace';
import { TracedHttpClient } from '../lib/traced-http.client';

export interface EmbeddingsReply {
  readonly embedding: Float32Array;
  readonly promptTokens: number;
}

export class EmbeddingsHttpClient {
  private readonly http: TracedHttpClient;

  constructor(
    baseURL: string,
    apiKey: string,
    private readonly model: string,
    maxSockets: number,
  ) {
    this.http = new TracedHttpClient(baseURL, { authorization: `Bearer ${apiKey}` }, maxSockets);
  }

  async embed(text: string, recorder: RequestRecorder): Promise<EmbeddingsReply> {
    const { status, body } = await this.http.post(
      'embeddings',
      { model: this.model, input: text, encoding_format: 'base64' },
      recorder,
    );
    if (status !== 200) throw new Error(`HTTP ${status}: ${body.slice(0, 300)}`);
    return parseReply(body);
  }

  close(): void {
    this.http.close();
  }
}

interface WireReply {
  data?: Array<{ embedding?: unknown }>;
  usage?: { prompt_tokens?: number };
}

function parseReply(text: string): EmbeddingsReply {
  const reply = JSON.parse(text) as WireReply;
  const encoded = reply.data?.[0]?.embedding;
  if (typeof encoded !== 'string') throw new Error(`no base64 embedding in ${text.slice(0, 200)}`);
  const bytes = Buffer.from(encoded, 'base64');
  // Copied into its own buffer: a view into the decoded Buffer may be misaligned for floats.
  const embedding = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(embedding.buffer).set(bytes);
  return { embedding, promptTokens: reply.usage?.prompt_tokens ?? 0 };
}
