import { TopTokensSelection } from './top-tokens.selection';

function select(n: number, values: number[]): { ids: number[]; logits: number[] } {
  const selection = new TopTokensSelection(n);
  selection.select(Float32Array.from(values));
  return {
    ids: Array.from(selection.ids.subarray(0, selection.count)),
    logits: Array.from(selection.logits.subarray(0, selection.count)),
  };
}

describe('TopTokensSelection', () => {
  it('lists the n largest logits, most likely first, lower id first on ties', () => {
    expect(select(4, [0.5, 3, -1, 3, 7, 2, 3])).toEqual({
      ids: [4, 1, 3, 6],
      logits: [7, 3, 3, 3],
    });
  });

  it('matches a full sort on a longer row', () => {
    const values = Array.from({ length: 1000 }, (_, i) => Math.fround(Math.sin(i * 1.7) * 10));
    const expected = [...values.keys()].sort((a, b) => values[b] - values[a] || a - b).slice(0, 20);
    expect(select(20, values).ids).toEqual(expected);
  });

  it('never lists banned (−Infinity) or NaN logits, so a masked row may give fewer', () => {
    expect(select(3, [-Infinity, 1, NaN, -Infinity])).toEqual({ ids: [1], logits: [1] });
  });

  it('is reusable: a second row replaces the first', () => {
    const selection = new TopTokensSelection(2);
    selection.select(Float32Array.from([5, 4, 3]));
    selection.select(Float32Array.from([1, 2, 3]));
    expect(Array.from(selection.ids)).toEqual([2, 1]);
  });
});
