import { saySymbols } from './symbol.rule';

describe('saySymbols', () => {
  it.each([
    ['#1 fan', 'number 1 fan'],
    ['# 5', 'number 5'],
    ['~5 minutes', 'approximately 5 minutes'],
    ['≈ $5', 'approximately $5'],
    ['at 3.30pm', 'at 3:30 pm'],
    ['11.45 a.m.', '11:45 a.m.'],
    ['12.05 PM', '12:05 PM'],
  ])('%s → %s', (input, said) => {
    expect(saySymbols(input)).toBe(said);
  });

  it.each(['&#123;', 'C#5', '#hashtag', '2.5 pm-ish', '13.30pm', '9.58 seconds', 'a~5'])(
    'leaves %j alone',
    (text) => {
      expect(saySymbols(text)).toBe(text);
    },
  );
});
