import { englishDialect } from './english.dialect';

describe('englishDialect', () => {
  it.each([
    ['en-us', 'us'],
    ['en_US', 'us'],
    ['EN-US', 'us'],
    ['en-gb', 'gb'],
    ['en-gb-x-rp', 'gb'],
    ['en', 'gb'],
    ['en-029', 'gb'],
  ])('%s speaks %s English', (language, spelling) => {
    expect(englishDialect(language)?.spelling).toBe(spelling);
  });

  it.each(['de', 'fr-fr', 'eng', 'es-419', ''])('%j is not English', (language) => {
    expect(englishDialect(language)).toBeUndefined();
  });
});
