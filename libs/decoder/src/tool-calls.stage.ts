// The output parser stage of a generation with tools: each choice's text deltas go through its
// own ToolCallParser (@tessera/text), so what reaches the service is content deltas and
// 'tool_call' events in OpenAI's delta shape, never the calls' markup. Main thread, after the
// worker's stream.
import { TOOL_CALL_SYNTAX, ToolCallParser, type ToolCallFormatName } from '@tessera/text';
import type { GenerationEvent, TokenLogprob } from './decoder.protocol';

export interface ToolCallStageOptions {
  readonly format: ToolCallFormatName;
  /**
   * tool_choice named one function: OpenAI then finishes with 'stop', not 'tool_calls' (the
   * call was asked for, not chosen by the model); vLLM does the same.
   */
  readonly forced: boolean;
}

interface ChoiceState {
  readonly parser: ToolCallParser;
  /** Logprobs of tokens whose text the parser still holds. */
  pending: TokenLogprob[];
  /** Tokens whose text the parser holds (or turned into markup): told with the next event. */
  tokens: number;
}

/** Deltas and finishes are parsed; every other event (the grammar's report) passes through. */
export async function* withToolCalls(
  source: AsyncIterable<GenerationEvent>,
  { format, forced }: ToolCallStageOptions,
): AsyncGenerator<GenerationEvent> {
  const choices = new Map<number, ChoiceState>();
  const stateOf = (choice: number): ChoiceState => {
    let state = choices.get(choice);
    if (!state) {
      state = { parser: new ToolCallParser(TOOL_CALL_SYNTAX[format]), pending: [], tokens: 0 };
      choices.set(choice, state);
    }
    return state;
  };
  for await (const event of source) {
    if (event.type !== 'delta' && event.type !== 'finish') {
      yield event;
    } else if (event.type === 'delta') {
      const state = stateOf(event.choice);
      if (event.logprobs) state.pending.push(...event.logprobs);
      state.tokens += event.tokens ?? 0;
      yield* eventsOf(event.choice, state, state.parser.push(event.text));
    } else {
      const state = stateOf(event.choice);
      yield* eventsOf(event.choice, state, state.parser.finish());
      const called = state.parser.calls > 0 && event.reason === 'stop' && !forced;
      yield called ? { ...event, reason: 'tool_calls' } : event;
      choices.delete(event.choice);
    }
  }
}

/**
 * The parser's output as events. Logprobs go with the content they produced (OpenAI reports
 * logprobs for content tokens); those of tokens that became a call's markup or arguments are
 * dropped.
 */
function* eventsOf(
  choice: number,
  state: ChoiceState,
  parsed: ReturnType<ToolCallParser['push']>,
): Generator<GenerationEvent> {
  for (const item of parsed) {
    const tokens = state.tokens;
    state.tokens = 0;
    if (item.type === 'content') {
      const logprobs = state.pending;
      state.pending = [];
      yield {
        type: 'delta',
        choice,
        text: item.text,
        ...(logprobs.length ? { logprobs } : {}),
        ...(tokens ? { tokens } : {}),
      };
    } else {
      state.pending = [];
      yield { ...item, choice, ...(tokens ? { tokens } : {}) };
    }
  }
}
