// The moderation handler of the bare two-hop relay (bench/lib/bare-relay.server.ts): POST
// /v1/moderations {model, input} → Moderation.Classify → the reference text-classification
// pipeline. The classifier's labels come back as the categories, unmapped: the relay is the floor
// of two process hops, not a moderation server.
import type {
  ClassifyRequest,
  ClassifyRequest__Output,
  ClassifyResponse,
  ClassifyResponse__Output,
} from '@tessera/contracts';
import type { RelayHandler } from '../lib/bare-relay.handler';
import { loadDirectClassifier } from './direct-classifier.reference';

export const relayHandler: RelayHandler<
  ClassifyRequest,
  ClassifyRequest__Output,
  ClassifyResponse,
  ClassifyResponse__Output
> = {
  service: 'moderation',
  method: 'Classify',
  async serve(modelDir) {
    const classifier = await loadDirectClassifier(modelDir);
    return async (request) => {
      const scores = await classifier.classify(request.items[0]?.parts[0]?.text ?? '');
      const categories = Object.entries(scores).map(([category, score]) => ({
        category,
        score,
        flagged: score >= 0.5,
        applied_input_types: ['text'],
      }));
      return {
        model: request.model,
        results: [{ flagged: categories.some((c) => c.flagged), categories }],
      };
    };
  },
  toRequest(body) {
    const { model, input } = body as { model: string; input: string };
    return { model, items: [{ parts: [{ text: input }] }] };
  },
  toJson(reply) {
    return {
      id: 'modr-relay',
      model: reply.model,
      results: reply.results.map((result) => ({
        flagged: result.flagged,
        categories: Object.fromEntries(result.categories.map((c) => [c.category, c.flagged])),
        category_scores: Object.fromEntries(result.categories.map((c) => [c.category, c.score])),
        category_applied_input_types: Object.fromEntries(
          result.categories.map((c) => [c.category, c.applied_input_types]),
        ),
      })),
    };
  },
};
