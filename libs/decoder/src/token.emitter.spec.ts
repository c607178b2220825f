import { loadChatTokenizer, type ChatTokenizer } from '@tessera/text';
import { TINY_LLAMA } from '../test/tiny-models';
import type { GenerationEvent } from './decoder.protocol';
import { TokenEmitter } from './token.emitter';

const EOS = 2;

describe('TokenEmitter', () => {
  let tokenizer: ChatTokenizer;
  /** The ids of 'The', ' sea', ' is', ' calm' (from a chat prompt, so real tokens). */
  let words: number[];

  beforeAll(async () => {
    tokenizer = await loadChatTokenizer(TINY_LLAMA);
    const ids = tokenizer.encodeChat([{ role: 'user', content: 'The sea is calm tonight' }]);
    const at = ids.findIndex((id) => tokenizer.tokenInfo(id).token === 'The');
    words = ids.slice(at, at + 4);
    expect(words.map((id) => tokenizer.tokenInfo(id).token)).toEqual([
      'The',
      ' sea',
      ' is',
      ' calm',
    ]);
  });

  /** The events of one choice fed `ids`, until the choice ends or the ids run out. */
  function emitted(ids: number[], job: { stop?: string[]; maxTokens?: number } = {}) {
    const events: GenerationEvent[] = [];
    const emitter = new TokenEmitter({
      choice: 1,
      job: { stop: job.stop ?? [], maxTokens: job.maxTokens ?? 16, logprobs: true },
      tokenizer,
      eos: new Set([EOS]),
      emit: (event) => events.push(event),
    });
    for (const [i, tokenId] of ids.entries()) {
      const ended = emitter.accept({ tokenId, logprob: -i, top: [{ tokenId, logprob: -i }] });
      expect(emitter.finished).toBe(ended);
      if (ended) break;
    }
    const deltas = events.flatMap((e) => (e.type === 'delta' ? [e] : []));
    return {
      events,
      emitter,
      text: deltas.map((e) => e.text).join(''),
      tokens: deltas.reduce((sum, e) => sum + (e.tokens ?? 0), 0),
      logprobs: deltas.flatMap((e) => e.logprobs ?? []),
    };
  }

  it('never sends a stop string: the text before it, then the finish with every token counted', () => {
    const { events, text, tokens, logprobs, emitter } = emitted(words, { stop: [' is calm'] });
    expect(text).toBe('The sea');
    expect(events.at(-1)).toEqual({
      type: 'finish',
      choice: 1,
      reason: 'stop',
      completionTokens: 4,
    });
    expect(emitter.generated).toBe(4);
    // The deltas tell the tokens whose text they carry, with those tokens' logprobs.
    expect(tokens).toBe(2);
    expect(logprobs.map((l) => l.token)).toEqual(['The', ' sea']);
    expect(logprobs[1]).toMatchObject({
      logprob: -1,
      topLogprobs: [{ token: ' sea', logprob: -1 }],
    });
  });

  it('sends held-back text at an end-of-sequence token, and finishes with stop', () => {
    const { events, text } = emitted([...words.slice(0, 3), EOS], { stop: [' is calm'] });
    expect(text).toBe('The sea is');
    expect(events.at(-1)).toEqual({
      type: 'finish',
      choice: 1,
      reason: 'stop',
      completionTokens: 4,
    });
  });

  it('sends everything at max tokens, each token told by a delta, and finishes with length', () => {
    const { events, text, tokens, logprobs } = emitted(words, { stop: [' is calm'], maxTokens: 3 });
    expect(text).toBe('The sea is');
    expect(tokens).toBe(3);
    expect(logprobs).toHaveLength(3);
    expect(events.at(-1)).toEqual({
      type: 'finish',
      choice: 1,
      reason: 'length',
      completionTokens: 3,
    });
  });
});
