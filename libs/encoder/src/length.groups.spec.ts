import { groupByLength } from './length.groups';

describe('groupByLength', () => {
  it('keeps equal lengths together', () => {
    expect(groupByLength([5, 5, 5])).toEqual([[0, 1, 2]]);
  });

  it('separates short rows from long ones and covers every row once', () => {
    const lengths = [128, 16, 17, 120, 18, 64, 60];
    const groups = groupByLength(lengths);
    expect(groups.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const group of groups) {
      const rows = group.map((i) => lengths[i]);
      const padded = Math.max(...rows) * rows.length;
      const real = rows.reduce((sum, n) => sum + n, 0);
      expect(padded).toBeLessThanOrEqual(1.25 * real);
    }
    expect(groups).toContainEqual([1, 2, 4]);
  });

  it('returns nothing for an empty batch', () => {
    expect(groupByLength([])).toEqual([]);
  });
});
