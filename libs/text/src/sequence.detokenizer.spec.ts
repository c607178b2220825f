import { join } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { loadChatTokenizer } from './chat.tokenizer';
import type { ChatTokenizer } from './text.contract';
import { loadLocalTokenizer } from './tokenizer.loader';
import { WindowDecoder } from './window.decoder';

/** SmolLM2's byte-level BPE tokenizer (49,152 tokens). */
const BYTE_LEVEL_DIR = join(__dirname, '../../../test/fixtures/models/tiny-llama');
/** Llama 2's layout: SentencePiece BPE, '▁' spaces, <0xAB> byte fallback (see its .py). */
const SENTENCEPIECE_DIR = join(__dirname, '../test/sentencepiece');

/** Every delta of a sequence streamed token by token, then the flushed tail. */
function stream(tokenizer: ChatTokenizer, ids: readonly number[], stop: string[] = []) {
  const detokenizer = tokenizer.detokenizer(stop);
  const deltas: string[] = [];
  let stoppedAt = -1;
  for (const [i, id] of ids.entries()) {
    const out = detokenizer.push(id);
    deltas.push(out.text);
    if (out.stopped) {
      stoppedAt = i;
      break;
    }
  }
  const tail = detokenizer.flush();
  return { deltas, tail, text: deltas.join('') + tail, stoppedAt };
}

/** A deterministic pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MIXED = 'Hello 世界 🎉 ok. Ünïcödé — “quotes” 👩‍👩‍👧 done; 東京は晴れです。\n  indented';

describe.each([
  ['byte-level BPE (SmolLM2)', BYTE_LEVEL_DIR],
  ['SentencePiece with byte fallback', SENTENCEPIECE_DIR],
])('SequenceDetokenizer on %s', (_name, dir) => {
  let tokenizer: ChatTokenizer;
  let raw: PreTrainedTokenizer;
  const encode = (text: string): number[] => raw.encode(text, { add_special_tokens: false });
  const decode = (ids: number[]): string =>
    raw.decode(ids, { skip_special_tokens: true, clean_up_tokenization_spaces: false });

  beforeAll(async () => {
    tokenizer = await loadChatTokenizer(dir);
    raw = await loadLocalTokenizer(dir);
  });

  it('emits a character split over byte tokens only once it is complete', () => {
    const ids = encode(MIXED);
    const { deltas, text } = stream(tokenizer, ids);
    expect(text).toBe(decode(ids));
    expect(text.trimStart()).toBe(MIXED);
    for (const delta of deltas) expect(delta).not.toContain('\uFFFD');
    // Some token really was only part of a character.
    expect(deltas.filter((delta) => delta === '').length).toBeGreaterThan(0);
  });

  it("keeps each token's leading space and spaces before punctuation", () => {
    const ids = encode('The capital , is Paris .');
    const { deltas, text } = stream(tokenizer, ids);
    expect(text).toBe(decode(ids));
    expect(text).toContain('capital , is Paris .');
    expect(deltas.some((delta) => delta.startsWith(' '))).toBe(true);
  });

  it('leaves special tokens out of the text', () => {
    const specials = raw.all_special_ids.slice(0, 2);
    const ids = [...encode('Hi'), ...specials, ...encode(' there')];
    expect(stream(tokenizer, ids).text).toBe(decode(ids));
    expect(stream(tokenizer, ids).text).toContain('Hi');
  });

  it('leaves out ids past the tokenizer (padded logits rows), as Python decode does', () => {
    const ids = encode('Hi there');
    const padded = [ids[0], tokenizer.vocabSize + 5, ...ids.slice(1)];
    expect(stream(tokenizer, padded).text).toBe(decode(ids));
  });

  it('streams 2,000 tokens of text and of random ids equal to one decode of them', () => {
    const ids = encode(`${MIXED} The capital of France is Paris. `.repeat(80)).slice(0, 2000);
    expect(ids).toHaveLength(2000);
    expect(stream(tokenizer, ids).text).toBe(decode(ids));
    const next = random(8);
    const special = new Set(raw.all_special_ids);
    const randomIds = Array.from({ length: 2000 }, () =>
      Math.floor(next() * tokenizer.vocabSize),
    ).filter((id) => !special.has(id));
    expect(stream(tokenizer, randomIds).text).toBe(decode(randomIds));
  });

  it('flushes a character cut off at the end as U+FFFD, as a decode does', () => {
    const ids = encode('ok 🎉');
    const cut = ids.slice(0, -1);
    const { text, tail } = stream(tokenizer, cut);
    expect(text).toBe(decode(cut));
    expect(tail).toContain('\uFFFD');
  });

  describe('stop strings', () => {
    const SENTENCE = 'The capital of France is Paris. Then more text follows.';
    /** Index of the token whose text completes `prefix` of the sentence. */
    const tokenEnding = (ids: number[], prefix: string): number =>
      ids.findIndex((_, i) => decode(ids.slice(0, i + 1)).length >= prefix.length);

    it('finds a stop split over several tokens and emits none of it', () => {
      const ids = encode(SENTENCE);
      const stop = 'l of France i';
      const start = tokenEnding(ids, 'The capita');
      const end = tokenEnding(ids, 'The capital of France i');
      expect(end - start).toBeGreaterThanOrEqual(2); // spread over 3 tokens or more
      const { text, stoppedAt, deltas } = stream(tokenizer, ids, [stop]);
      expect(text).toBe('The capita');
      expect(stoppedAt).toBe(end);
      expect(deltas.join('')).toBe('The capita');
    });

    it('stops at the very start', () => {
      const { text, stoppedAt } = stream(tokenizer, encode(SENTENCE), ['The']);
      expect(text).toBe('');
      expect(stoppedAt).toBe(0);
    });

    it('cuts a stop inside one token and drops what follows it', () => {
      const ids = encode(SENTENCE);
      const { text, stoppedAt } = stream(tokenizer, ids, ['apit']);
      expect(text).toBe('The c');
      expect(stoppedAt).toBe(tokenEnding(ids, 'The capit'));
    });

    it('with overlapping stops, cuts at the first completed', () => {
      const ids = encode(SENTENCE);
      expect(stream(tokenizer, ids, ['France is', 'is Paris', 'Paris!']).text).toBe(
        'The capital of ',
      );
      // " Paris" is held as a possible "Paris!" and released when it is not.
      const { text, stoppedAt } = stream(tokenizer, ids, ['Paris!', 'Paris?']);
      expect(text).toBe(decode(ids));
      expect(stoppedAt).toBe(-1);
    });

    it('cuts a stop made of multi-byte characters split over byte tokens', () => {
      const ids = encode('Say 世界 and 東京 now');
      expect(stream(tokenizer, ids, ['界 and 東']).text).toBe(`${decode(ids).split('界')[0]}`);
    });

    it('flush returns the text held back at the end', () => {
      const ids = encode('The capital is Paris');
      const { text, tail } = stream(tokenizer, ids, ['Paris.']);
      expect(text).toBe(decode(ids));
      expect(tail).toBe('Paris');
    });
  });
});

describe('WindowDecoder', () => {
  it('decodes a bounded window per token however long the sequence', async () => {
    const raw = await loadLocalTokenizer(SENTENCEPIECE_DIR);
    const ids = raw.encode(`${MIXED} The capital of France is Paris. `.repeat(60), {
      add_special_tokens: false,
    });
    let longest = 0;
    const decoder = new WindowDecoder((window) => {
      longest = Math.max(longest, window.length);
      return window.length === 0 ? '' : raw.decode(window as number[], {});
    });
    const text = ids.map((id) => decoder.push(id)).join('') + decoder.flush();
    expect(ids.length).toBeGreaterThan(2000);
    expect(text).toBe(raw.decode(ids, { clean_up_tokenization_spaces: false }));
    // A window is the last emitted tokens plus at most a character's byte tokens.
    expect(longest).toBeLessThanOrEqual(8);
  });
});
