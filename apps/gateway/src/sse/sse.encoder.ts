// Server-sent events as OpenAI streams them: each event one `data:` line of JSON and a blank
// line, `data: [DONE]` after the last. JSON.stringify escapes newlines, so one line always holds
// a whole event.
export class SseEncoder {
  event(data: unknown): string {
    return `data: ${JSON.stringify(data)}\n\n`;
  }

  done(): string {
    return 'data: [DONE]\n\n';
  }
}
