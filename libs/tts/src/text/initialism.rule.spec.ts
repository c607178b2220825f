import { joinInitialisms } from './initialism.rule';

describe('joinInitialisms', () => {
  it.each([
    ['the U.S. Army.', 'the U.S Army.'],
    ['the U.K. Navy', 'the U.K Navy'],
    ['J. R. R. Tolkien', 'J R R Tolkien'],
    ['J. Smith', 'J Smith'],
  ])('%s → %s', (input, said) => {
    expect(joinInitialisms(input)).toBe(said);
  });

  it.each([
    'I live in the U.S. The weather is fine.',
    'Plan B. Then it rained.',
    'Grade A. Smith said so.',
    'Part I. Smith said so.',
    'the U.S. army',
    'at 7 a.m. Doctor Smith',
    'the U.S.',
    'U.S.\nArmy',
  ])('leaves %j alone', (text) => {
    expect(joinInitialisms(text)).toBe(text);
  });
});
