import { sayDates } from './date.rule';
import { englishDialect } from './english.dialect';

const US = englishDialect('en-us')!;
const GB = englishDialect('en-gb')!;

describe('sayDates', () => {
  it.each([
    ['12/25/2024', 'December 25th, 2024'],
    ['1/2/2024', 'January 2nd, 2024'],
    ['25/12/2024', 'December 25th, 2024'],
    ['12-25-2024', 'December 25th, 2024'],
    ['25.12.2024', 'December 25th, 2024'],
    ['2024-01-05', 'January 5th, 2024'],
    ['2024/1/5', 'January 5th, 2024'],
    ['2/29/2024', 'February 29th, 2024'],
    ['On 12/25/2024, we', 'On December 25th, 2024, we'],
    ['December 25', 'December 25th'],
    ['December 25, 2024', 'December 25th, 2024'],
    ['Dec 25', 'December 25th'],
    ['Sept 12', 'September 12th'],
    ['March 3-5', 'March 3rd to 5th'],
    ['May 1', 'May 1st'],
    ['on June 22.', 'on June 22nd.'],
    ['5 January 2024', 'the 5th of January 2024'],
    ['the 5 May', 'the 5th of May'],
    ['3rd Dec', 'the 3rd of December'],
    ['Jan 2024', 'January 2024'],
  ])('en-us: %s → %s', (input, said) => {
    expect(sayDates(input, US)).toBe(said);
  });

  it.each([
    ['12/05/2024', 'the 12th of May 2024'],
    ['12/25/2024', 'the 25th of December 2024'],
    ['2024-01-05', 'the 5th of January 2024'],
    ['on the 25.12.2024', 'on the 25th of December 2024'],
    ['December 25', 'December 25th'],
  ])('en-gb: %s → %s', (input, said) => {
    expect(sayDates(input, GB)).toBe(said);
  });

  it.each([
    '2/30/2023',
    '13/13/2024',
    '2/29/2023',
    '1/2/24',
    '1/2',
    '24/7',
    '2024-01-05T10:00:00Z',
    '1.2.3.2024',
    'December 25th',
    'May 5,000 people',
    'June 10:30',
    'March 32',
    'the 17th of March',
    'June 2024',
    'may 5',
  ])('leaves %j alone', (text) => {
    expect(sayDates(text, US)).toBe(text);
  });
});
