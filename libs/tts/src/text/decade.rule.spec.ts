import { sayDecades } from './decade.rule';

describe('sayDecades', () => {
  it.each([
    ['the 1990s', 'the nineteen nineties'],
    ["the 1990's", 'the nineteen nineties'],
    ["the '90s", 'the nineties'],
    ['the ’80s', 'the eighties'],
    ['in his 20s', 'in his twenties'],
    ['the 1800s', 'the eighteen hundreds'],
    ['the 1900s', 'the nineteen hundreds'],
    ['the 2000s', 'the two thousands'],
    ['the 2010s', 'the twenty tens'],
    ["the '00s", 'the two thousands'],
    ['100s of people', 'hundreds of people'],
    ['1000s of people', 'thousands of people'],
    ["1990's.", 'nineteen nineties.'],
    ['the 2500s', 'the twenty five hundreds'],
  ])('%s → %s', (input, said) => {
    expect(sayDecades(input)).toBe(said);
  });

  it.each(['$100s', '3.80s', '1,000s', '1995s', '00s', 'B52s', '90sec'])(
    'leaves %j alone',
    (text) => {
      expect(sayDecades(text)).toBe(text);
    },
  );
});
