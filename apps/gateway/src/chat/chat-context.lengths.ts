// The context length of each chat model, as the chat service reports it (ListModels, the same
// `context_length` GET /v1/models shows): what a request without `max_tokens` may generate,
// which the key's token budget reserves (chat-usage.estimate.ts). Asked once, when the first
// request of a key with a token budget needs it; concurrent first requests share one call.
import { Injectable } from '@nestjs/common';
import { UpstreamClients } from '../upstream/upstream-clients';

const LIST_TIMEOUT_MS = 2000;

@Injectable()
export class ChatContextLengths {
  private readonly known = new Map<string, number>();
  private asking: Promise<void> | undefined;

  constructor(private readonly upstreams: UpstreamClients) {}

  /** Undefined while the service does not answer or does not serve the model. */
  async of(modelId: string): Promise<number | undefined> {
    if (!this.known.has(modelId)) await this.ask();
    return this.known.get(modelId);
  }

  private ask(): Promise<void> {
    this.asking ??= this.upstreams
      .unary('chat', 'ListModels', {}, { timeoutMs: LIST_TIMEOUT_MS })
      .then((response) => {
        for (const model of response.models ?? []) {
          if (model.id && model.context_length) this.known.set(model.id, model.context_length);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        this.asking = undefined;
      });
    return this.asking;
  }
}
