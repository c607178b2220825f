// The embeddings handler of the bare two-hop relay (bench/lib/bare-relay.server.ts): POST
// /v1/embeddings {model, input} → Embeddings.Embed → the reference feature-extraction pipeline.
import type {
  EmbedRequest,
  EmbedRequest__Output,
  EmbedResponse,
  EmbedResponse__Output,
} from '@tessera/contracts';
import type { RelayHandler } from '../lib/bare-relay.handler';
import { loadDirectPipeline } from './direct-pipeline.reference';

export const relayHandler: RelayHandler<
  EmbedRequest,
  EmbedRequest__Output,
  EmbedResponse,
  EmbedResponse__Output
> = {
  service: 'embeddings',
  method: 'Embed',
  async serve(modelDir) {
    const pipeline = await loadDirectPipeline(modelDir);
    return async (request) => {
      const text = request.inputs[0]?.text ?? '';
      const vector = await pipeline.embed(text);
      const tokens = pipeline.countTokens(text);
      return {
        model: request.model,
        embeddings: [
          {
            data: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
            dimensions: vector.length,
          },
        ],
        usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens },
      };
    };
  },
  toRequest(body) {
    const { model, input } = body as { model: string; input: string };
    return { model, inputs: [{ text: input }] };
  },
  toJson(output) {
    return {
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: output.embeddings[0].data.toString('base64') },
      ],
      model: output.model,
      usage: output.usage,
    };
  },
};
