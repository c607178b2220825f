// What a chat request is billed for, read off its Generate frames as they go by: the images
// sent, the prompt tokens (first delta), the completion tokens each delta accounts for (the sum
// a stream the client leaves is billed for), and the exact totals of the last frame's usage.
import type { ChatMessage, GenerateResponse__Output } from '@tessera/contracts';
import type { UsageMeter } from '../usage/usage.meter';

export function imagesOf(messages: readonly ChatMessage[]): number {
  return messages.reduce(
    (count, message) => count + (message.content ?? []).filter((part) => part.image).length,
    0,
  );
}

export function meterChatFrame(meter: UsageMeter, frame: GenerateResponse__Output): void {
  if (frame.delta) {
    if (frame.delta.prompt_tokens > 0) meter.measure({ inputTokens: frame.delta.prompt_tokens });
    meter.add({ outputTokens: frame.delta.tokens });
  }
  const usage = frame.finish?.usage;
  if (usage) {
    meter.measure({ inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens });
  }
}
