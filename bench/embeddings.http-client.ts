// The candidate's client: POST /v1/embeddings with one input string per request and
// `encoding_format: base64` (what the OpenAI SDK sends by default), over keep-alive
// connections. node:http rather than fetch: the driver shares two cores with the server, so
// the client should cost as little CPU as possible.
import { Agent, request } from 'node:http';

export interface EmbeddingsReply {
  readonly embedding: Float32Array;
  readonly promptTokens: number;
}

export class EmbeddingsHttpClient {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(
    baseURL: string,
    private readonly apiKey: string,
    private readonly model: string,
    maxSockets: number,
  ) {
    this.url = new URL(`${baseURL.replace(/\/$/, '')}/embeddings`);
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  embed(text: string): Promise<EmbeddingsReply> {
    const body = Buffer.from(
      JSON.stringify({ model: this.model, input: text, encoding_format: 'base64' }),
    );
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': body.length,
            authorization: `Bearer ${this.apiKey}`,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) {
              reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
              return;
            }
            try {
              resolve(parseReply(text));
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
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
