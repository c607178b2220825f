// The token counts of one Generate call on its spans, read off the generation's events: the
// call's span takes the request's usage from the last finish; the model-run span lasts from the
// engine taking the request until its stream ends — completed, failed or left early — and
// carries the exact totals, or for a stream that did not complete, the prompt and the tokens
// produced until then (what such a stream is billed for, docs/usage.md).
import type { Span } from '@opentelemetry/api';
import type { GenerationEvent, GenerationUsage } from '@tessera/decoder';
import { GEN_AI, endModelRunSpan, startModelRunSpan } from '@tessera/observability';

export class GenerationTrace {
  private readonly run: Span;
  private usage?: GenerationUsage;
  private promptTokens?: number;
  private completionTokens = 0;

  constructor(
    private readonly call: Span,
    model: string,
  ) {
    this.run = startModelRunSpan(call, 'chat', model);
  }

  observe(event: GenerationEvent): void {
    if (event.type === 'grammar') return;
    if (event.type !== 'finish') {
      this.promptTokens ??= event.promptTokens;
      this.completionTokens += event.tokens ?? 0;
    } else if (event.usage) {
      this.usage = event.usage;
      setCounts(this.call, event.usage);
    }
  }

  /** The stream has ended: completed once the usage came, else with `error` (or as left early). */
  end(error?: unknown): void {
    const { usage, promptTokens, completionTokens } = this;
    if (usage) {
      setCounts(this.run, usage);
      endModelRunSpan(this.run);
      return;
    }
    if (promptTokens !== undefined) setCounts(this.run, { promptTokens, completionTokens });
    endModelRunSpan(this.run, error ?? 'the stream was left before the generation ended');
  }
}

function setCounts(span: Span, usage: GenerationUsage): void {
  span.setAttribute(GEN_AI.inputTokens, usage.promptTokens);
  span.setAttribute(GEN_AI.outputTokens, usage.completionTokens);
}
