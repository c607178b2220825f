// The Embed reply as the OpenAI embeddings response. Vectors arrive as little-endian float32
// bytes, so base64 is the bytes as they are and float is one decode.
import type { EmbedResponse__Output } from '@tessera/contracts';

export interface OpenAIEmbeddingsResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

export function toOpenAIEmbeddings(
  response: EmbedResponse__Output,
  encodingFormat: 'float' | 'base64',
  model: string,
): OpenAIEmbeddingsResponse {
  return {
    object: 'list',
    data: response.embeddings.map((embedding, index) => ({
      object: 'embedding',
      index,
      embedding:
        encodingFormat === 'base64' ? embedding.data.toString('base64') : toFloats(embedding.data),
    })),
    model,
    usage: {
      prompt_tokens: response.usage?.prompt_tokens ?? 0,
      total_tokens: response.usage?.total_tokens ?? 0,
    },
  };
}

function toFloats(bytes: Buffer): number[] {
  const values = new Array<number>(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * 4);
  return values;
}
