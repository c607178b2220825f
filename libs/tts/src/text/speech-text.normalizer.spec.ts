import { normalizeForSpeech } from './speech-text.normalizer';

describe('normalizeForSpeech', () => {
  // The fidelity corpus: what changes is what espeak-ng (piper-tts 1.8) reads wrongly or cuts
  // into two sentences; the other sentences must come out exactly as they went in.
  it.each([
    [
      'Dr. Smith paid $3.50 for 2 coffees at 7:45 a.m.',
      'Doctor Smith paid 3 dollars and 50 cents for 2 coffees at 7:45 a.m.',
    ],
    [
      'Mr. and Mrs. Jones live at 221B Baker Street, London.',
      'Mister and Misses Jones live at 221B Baker Street, London.',
    ],
    [
      'She bought 1,250 shares at $17.25 each, spending over $21,000.',
      'She bought 1,250 shares at 17 dollars and 25 cents each, spending over 21,000 dollars.',
    ],
    [
      'My phone number is 555-0123, but call after 6 p.m.',
      'My phone number is 5 5 5, 0 1 2 3, but call after 6 p.m.',
    ],
    [
      "Prof. Lee's lecture covered chapters 4 through 9: algebra, geometry, and calculus.",
      "Professor Lee's lecture covered chapters 4 through 9: algebra, geometry, and calculus.",
    ],
    [
      "Approx. 75% of the Earth's surface is covered by water.",
      "Approximately 75% of the Earth's surface is covered by water.",
    ],
    [
      "St. Patrick's Day falls on the 17th of March every year.",
      "Saint Patrick's Day falls on the 17th of March every year.",
    ],
    [
      'Why would anyone pay £500 for a pair of shoes?',
      'Why would anyone pay 500 pounds for a pair of shoes?',
    ],
    [
      "The company's revenue was €3.2 million, up from €2.8 million.",
      "The company's revenue was 3.2 million euros, up from 2.8 million euros.",
    ],
    [
      'Please read pages 12-15 before class tomorrow.',
      'Please read pages 12 to 15 before class tomorrow.',
    ],
    [
      "It's 72°F outside, which is about 22°C.",
      "It's 72 degrees Fahrenheit outside, which is about 22 degrees Celsius.",
    ],
    [
      'Lt. Col. Harris served for 25 years in the U.S. Army.',
      'Lieutenant Colonel Harris served for 25 years in the U.S Army.',
    ],
    ['Pay by 12/25/2024 or 2024-01-05.', 'Pay by December 25th, 2024 or January 5th, 2024.'],
    ['In the 1990s, Jan. 5 was cold.', 'In the nineteen nineties, January 5th was cold.'],
  ])('en-us: %s', (input, said) => {
    expect(normalizeForSpeech(input, 'en-us')).toBe(said);
  });

  it.each([
    'Hello world. The quick brown fox jumps over the lazy dog, 42 times.',
    'On January 5th, 2024, the temperature dropped to -12 degrees.',
    'Is it true that 1 in 3 people prefer tea? I doubt it!',
    'The meeting is scheduled for 3:30 p.m.; please be on time.',
    'Wait... what did you just say?',
    'The U.S. economy grew by 2.5% in the third quarter.',
    '"I can\'t believe it," she whispered, "it\'s finally over."',
    'The train departs at 10:15 and arrives at 14:40.',
    'In 1969, Apollo 11 landed on the Moon; it was July 20th.',
    "Don't forget: the deadline is Friday, March 3rd!",
    'He ran the 100 m dash in 9.58 seconds, a world record.',
    'Version 2.0 fixes 17 bugs and adds 3 new features.',
    'Our flight, UA 857, was delayed by 2 hours and 15 minutes.',
    'Can you believe the score was 3 to 2 in overtime?',
    'Send an e-mail to 42 people: 1,250 of them said 2.5% at 3:30 p.m.',
    'The 1st, 2nd, 3rd and 101st; 1,000,000; 0.001; -7; +1.',
    'I live in the U.S. The weather is fine.',
  ])('en-us leaves %j as it is', (text) => {
    expect(normalizeForSpeech(text, 'en-us')).toBe(text);
  });

  it('leaves web and e-mail addresses exactly as written', () => {
    const text =
      'See https://example.com/2024-01-05/12-15?p=$5 or www.example.org/Dr./St. and mail jane.doe@example.com, Dr. Smith.';
    expect(normalizeForSpeech(text, 'en-us')).toBe(
      'See https://example.com/2024-01-05/12-15?p=$5 or www.example.org/Dr./St. and mail jane.doe@example.com, Doctor Smith.',
    );
  });

  it('says dates and spellings the British way for other English voices', () => {
    expect(normalizeForSpeech('On 12/05/2024 we ran 5 km.', 'en-gb')).toBe(
      'On the 12th of May 2024 we ran 5 kilometres.',
    );
  });

  it.each(['de', 'fr-fr', 'es'])('changes only whitespace for %s', (language) => {
    expect(normalizeForSpeech('  Dr. Smith  zahlte $3.50\r\nam 12/25/2024.  ', language)).toBe(
      'Dr. Smith zahlte $3.50\nam 12/25/2024.',
    );
  });

  it('normalises whitespace for English too', () => {
    expect(normalizeForSpeech('  one\t two \r\n\r\n\r\nthree  ', 'en-us')).toBe('one two\n\nthree');
  });

  it('is deterministic', () => {
    const text = 'Dr. Smith paid $3.50 on 12/25/2024, approx. 72°F, pages 12-15, the 1990s.';
    expect(normalizeForSpeech(text, 'en-us')).toBe(normalizeForSpeech(text, 'en-us'));
  });

  // Bounded work: the longest input the API accepts, built from the densest rewrites, grows by
  // a small constant factor (the rules never feed on their own output).
  it.each([
    ['$1 ', 4],
    ['1990s ', 3],
    ['May 5 ', 3],
    ['Dr. Smith ', 2],
    ['12-15 ', 2],
    ['555-0123 ', 2],
    ['U.S. ', 1],
    ['1-', 1],
    ['1,000,', 1],
  ])('keeps 4096 characters of %j bounded', (unit, factor) => {
    const text = unit.repeat(Math.ceil(4096 / unit.length)).slice(0, 4096);
    const said = normalizeForSpeech(text, 'en-us');
    expect(said.length).toBeLessThanOrEqual(factor * text.length);
    expect(normalizeForSpeech(said, 'en-us').length).toBeLessThanOrEqual(factor * said.length);
  });
});
