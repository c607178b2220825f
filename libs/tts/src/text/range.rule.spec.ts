import { sayRanges } from './range.rule';

describe('sayRanges', () => {
  it.each([
    ['pages 12-15', 'pages 12 to 15'],
    ['12–15', '12 to 15'],
    ['12 – 15', '12 to 15'],
    ['1990-1995', '1990 to 1995'],
    ['1990-95', '1990 to 95'],
    ['2023-24', '2023 to 24'],
    ['10-20%', '10 to 20%'],
    ['5-10kg', '5 to 10kg'],
    ['9:00-17:00', '9:00 to 17:00'],
    ['1.5-2.5', '1.5 to 2.5'],
    ['1,000-2,000', '1,000 to 2,000'],
    ['won 3-2.', 'won 3 to 2.'],
  ])('%s → %s', (input, said) => {
    expect(sayRanges(input)).toBe(said);
  });

  it.each([
    'COVID-19',
    'A4-5',
    '1-2-3',
    '-5-10',
    '978-3-16-148410-0',
    '2023-01',
    '12345-6789',
    'e-mail',
    '12 - 15',
    'v1.2-3',
  ])('leaves %j alone', (text) => {
    expect(sayRanges(text)).toBe(text);
  });
});
