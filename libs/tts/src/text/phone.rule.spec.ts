import { sayPhoneNumbers } from './phone.rule';

describe('sayPhoneNumbers', () => {
  it.each([
    ['555-0123', '5 5 5, 0 1 2 3'],
    ['call 555-1234.', 'call 5 5 5, 1 2 3 4.'],
    ['555-123-4567', '5 5 5, 1 2 3, 4 5 6 7'],
    ['555.123.4567', '5 5 5, 1 2 3, 4 5 6 7'],
    ['(555) 123-4567', '5 5 5, 1 2 3, 4 5 6 7'],
    ['+1 (555) 123-4567', '+1, 5 5 5, 1 2 3, 4 5 6 7'],
    ['1-800-555-0199', '1, 8 0 0, 5 5 5, 0 1 9 9'],
  ])('%s → %s', (input, said) => {
    expect(sayPhoneNumbers(input)).toBe(said);
  });

  it.each([
    '100-1000',
    '250-5000',
    '1990-1995',
    '555-12345',
    '12-3456',
    '555-0123-9',
    '3.555-1234',
  ])('leaves %j alone', (text) => {
    expect(sayPhoneNumbers(text)).toBe(text);
  });
});
