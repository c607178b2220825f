import type { GenerationEvent, TokenLogprob } from './decoder.protocol';
import { withToolCalls } from './tool-calls.stage';

async function* eventsOf(events: GenerationEvent[]): AsyncGenerator<GenerationEvent> {
  for (const event of events) yield await Promise.resolve(event);
}

async function collect(events: GenerationEvent[], forced = false): Promise<GenerationEvent[]> {
  const out: GenerationEvent[] = [];
  for await (const event of withToolCalls(eventsOf(events), { format: 'hermes', forced })) {
    out.push(event);
  }
  return out;
}

const delta = (choice: number, text: string, logprobs?: TokenLogprob[]): GenerationEvent => ({
  type: 'delta',
  choice,
  text,
  ...(logprobs ? { logprobs } : {}),
});
const finish = (choice: number, reason: 'stop' | 'length' = 'stop'): GenerationEvent => ({
  type: 'finish',
  choice,
  reason,
  completionTokens: 9,
});
const lp = (token: string): TokenLogprob => ({ token, logprob: -1, bytes: [], topLogprobs: [] });

describe('withToolCalls', () => {
  it('parses each choice on its own and finishes a choice that called with tool_calls', async () => {
    const out = await collect([
      delta(0, 'Hi <tool_'),
      delta(1, 'Plain <b>text</b>'),
      delta(0, 'call>\n{"name": "f", "arguments": {"a": 1'),
      delta(1, '.'),
      delta(0, '}}\n</tool_call>'),
      finish(1),
      finish(0),
    ]);
    const id = (out.find((e) => e.type === 'tool_call' && e.id) as { id: string }).id;
    expect(id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(out).toEqual([
      delta(0, 'Hi '),
      delta(1, 'Plain <b>text</b>'),
      { type: 'tool_call', choice: 0, index: 0, id, name: 'f', arguments: '' },
      { type: 'tool_call', choice: 0, index: 0, arguments: '{"a": 1' },
      delta(1, '.'),
      { type: 'tool_call', choice: 0, index: 0, arguments: '}' },
      finish(1),
      { ...finish(0), reason: 'tool_calls' },
    ]);
  });

  it('passes the grammar report through', async () => {
    const report: GenerationEvent = { type: 'grammar', cacheHit: true, compileMs: 0 };
    expect(await collect([report, delta(0, 'x'), finish(0)])).toEqual([
      report,
      delta(0, 'x'),
      finish(0),
    ]);
  });

  it("keeps 'length' for a call cut off, and 'stop' for a forced call (as OpenAI)", async () => {
    const call = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>';
    const cut = await collect([
      delta(0, '<tool_call>\n{"name": "f", "arguments": {"a'),
      finish(0, 'length'),
    ]);
    expect(cut.at(-1)).toEqual(finish(0, 'length'));
    const forced = await collect([delta(0, call), finish(0)], true);
    expect(forced.at(-1)).toEqual(finish(0, 'stop'));
  });

  it('gives logprobs to the content they made, and drops those of markup', async () => {
    const out = await collect([
      delta(0, 'Hi <', [lp('Hi'), lp(' <')]),
      delta(0, 'b>', [lp('b>')]),
      delta(0, '<tool_call>{"name": "f", "arguments": {}}</tool_call>', [lp('<tool_call>')]),
      finish(0),
    ]);
    expect(out.slice(0, 2)).toEqual([
      delta(0, 'Hi ', [lp('Hi'), lp(' <')]),
      delta(0, '<b>', [lp('b>')]),
    ]);
    expect(out.filter((e) => e.type === 'delta')).toHaveLength(2);
  });
});
