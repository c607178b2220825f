import { StopMatcher } from './stop.matcher';

/** Feeds deltas; returns what was emitted and at which delta a stop completed (−1: none). */
function run(
  stops: string[],
  deltas: string[],
): { text: string; stoppedAt: number; out: string[] } {
  const matcher = new StopMatcher(stops);
  const out: string[] = [];
  for (const [i, delta] of deltas.entries()) {
    const result = matcher.push(delta);
    out.push(result.text);
    if (result.stopped) return { text: out.join(''), stoppedAt: i, out };
  }
  out.push(matcher.flush());
  return { text: out.join(''), stoppedAt: -1, out };
}

describe('StopMatcher', () => {
  it('finds a stop split over three deltas and emits nothing of it', () => {
    const { text, stoppedAt, out } = run(['STOP'], ['abc S', 'T', 'OP and more']);
    expect(text).toBe('abc ');
    expect(stoppedAt).toBe(2);
    expect(out).toEqual(['abc ', '', '']);
  });

  it('releases held-back text when it turns out not to be a stop', () => {
    const { text, out } = run(['STOP'], ['abc ST', 'AR', ' end']);
    expect(out).toEqual(['abc ', 'STAR', ' end', '']);
    expect(text).toBe('abc STAR end');
  });

  it('stops at the very start, emitting nothing', () => {
    expect(run(['Hello'], ['Hel', 'lo world'])).toEqual({ text: '', stoppedAt: 1, out: ['', ''] });
  });

  it('cuts at the earliest-starting stop when several complete in one delta', () => {
    expect(
      run(['is Paris', 'France', 'capital of'], ['The capital of France is Paris.']).text,
    ).toBe('The ');
  });

  it('cuts at the stop completed first when overlapping stops arrive token by token', () => {
    // "bc" completes before "abcd" could; "a" was held as a possible start of "abcd".
    const { text, stoppedAt } = run(['abcd', 'bc'], ['x a', 'b', 'c', 'd']);
    expect(text).toBe('x a');
    expect(stoppedAt).toBe(2);
  });

  it('holds the longest tail that may start any of the stops', () => {
    const matcher = new StopMatcher(['xyz', 'yzw', 'zq']);
    expect(matcher.push('abxy')).toEqual({ text: 'ab', stopped: false });
    expect(matcher.push('z')).toEqual({ text: '', stopped: true });
  });

  it('cuts a stop inside one delta and drops the text after it', () => {
    expect(run(['<end>'], ['one two<end>three', 'four'])).toEqual({
      text: 'one two',
      stoppedAt: 0,
      out: ['one two'],
    });
  });

  it('flush returns the held tail, and cuts a stop completed by the flushed text', () => {
    expect(run(['STOP'], ['abc ST'])).toEqual({
      text: 'abc ST',
      stoppedAt: -1,
      out: ['abc ', 'ST'],
    });
    const matcher = new StopMatcher(['STOP']);
    expect(matcher.push('abc ST').text).toBe('abc ');
    expect(matcher.flush('OP tail')).toBe('');
  });

  it('emits nothing more once stopped', () => {
    const matcher = new StopMatcher(['.']);
    expect(matcher.push('a.b')).toEqual({ text: 'a', stopped: true });
    expect(matcher.push('c')).toEqual({ text: '', stopped: true });
    expect(matcher.flush()).toBe('');
  });

  it('ignores empty stop strings and passes text straight through without stops', () => {
    expect(run(['', ''], ['a', 'b'])).toEqual({ text: 'ab', stoppedAt: -1, out: ['a', 'b', ''] });
  });
});
