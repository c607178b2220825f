// What one request used, as it is billed: the contract between the endpoints that measure usage,
// the usage ledger that records it (JSON-lines log + Prometheus counters) and the rate limiter
// that debits the key's per-minute budgets by it.
import { Injectable } from '@nestjs/common';

/** Amounts in each modality's unit; zero where the modality does not apply. */
export interface UsageAmounts {
  /** Chat prompt tokens, embeddings and moderation input tokens. */
  inputTokens: number;
  /** Chat completion tokens (what was produced, also for a stream cut by the client). */
  outputTokens: number;
  /** Seconds of audio transcribed or translated. */
  audioSeconds: number;
  /** Characters of speech input synthesised. */
  characters: number;
  /** Images in a chat request. */
  images: number;
}

export interface UsageRecord extends UsageAmounts {
  /** ISO 8601, when the usage was billed. */
  time: string;
  requestId: string;
  /** The key's id (never the key); null when auth is disabled. */
  keyId: string | null;
  /** The resolved model id. */
  model: string;
  /** The route, e.g. `/v1/chat/completions`. */
  route: string;
  /** `completed`: the whole answer was sent; `client_closed`: the client left a stream early. */
  outcome: 'completed' | 'client_closed';
}

export const NO_USAGE: Readonly<UsageAmounts> = {
  inputTokens: 0,
  outputTokens: 0,
  audioSeconds: 0,
  characters: 0,
  images: 0,
};

/** Told every record once it is billed (the rate limiter debits the key's budgets). */
@Injectable()
export class UsageEvents {
  private readonly listeners: ((record: UsageRecord) => void)[] = [];

  onBilled(listener: (record: UsageRecord) => void): void {
    this.listeners.push(listener);
  }

  billed(record: UsageRecord): void {
    for (const listener of this.listeners) listener(record);
  }
}
