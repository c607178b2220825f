import { sayAbbreviations } from './abbreviation.rule';
import { englishDialect } from './english.dialect';

const US = englishDialect('en-us')!;
const GB = englishDialect('en-gb')!;

describe('sayAbbreviations', () => {
  it.each([
    // titles: never a sentence end
    ['Dr. Smith', 'Doctor Smith'],
    ['Mr. and Mrs. Jones', 'Mister and Misses Jones'],
    ['Ms. Lee', 'Miz Lee'],
    ['Prof. Lee', 'Professor Lee'],
    ['Lt. Col. Harris', 'Lieutenant Colonel Harris'],
    ['Gen. Lee', 'General Lee'],
    ['Capt. Kirk', 'Captain Kirk'],
    ['Sgt. Pepper', 'Sergeant Pepper'],
    ['Rev. King', 'Reverend King'],
    ['Hon. Smith', 'Honorable Smith'],
    ['Mt. Everest', 'Mount Everest'],
    ['Gov. Brown', 'Governor Brown'],
    ['Sen. Warren', 'Senator Warren'],
    // St. and Dr. by context
    ["St. Patrick's Day", "Saint Patrick's Day"],
    ['St. Louis', 'Saint Louis'],
    ['near 5th St. and', 'near 5th Street and'],
    ['Baker St. The house', 'Baker Street. The house'],
    ['on Main St. in town', 'on Main Street in town'],
    ['Main St.', 'Main Street.'],
    ['on Elm Dr. near', 'on Elm Drive near'],
    ['Mulholland Dr. The end', 'Mulholland Drive. The end'],
    ['ask the Dr. about it', 'ask the Doctor about it'],
    // inline
    ['Approx. 75%', 'Approximately 75%'],
    ['approx. 5', 'approximately 5'],
    ['Lakers vs. Celtics', 'Lakers versus Celtics'],
    ['Lakers vs Celtics', 'Lakers versus Celtics'],
    ['e.g. Paris', 'for example Paris'],
    ['i.e. London', 'that is London'],
    ['cf. Smith', 'compare Smith'],
    ['a.k.a. Bob', 'also known as Bob'],
    // trailing: the period stays where a sentence ends
    ['apples, etc. The next', 'apples, et cetera. The next'],
    ['apples, etc., pears', 'apples, et cetera, pears'],
    ['and so on etc.', 'and so on et cetera.'],
    ['etc. and more', 'et cetera and more'],
    ['Smith et al. The results', 'Smith and others. The results'],
    ['Smith et al. showed', 'Smith and others showed'],
    ['John Smith Jr. arrived', 'John Smith Junior arrived'],
    ['Acme Inc. Headquarters', 'Acme Incorporated Headquarters'],
    ['Acme Inc. It grew.', 'Acme Incorporated. It grew.'],
    ['Acme Ltd.\nNext', 'Acme Limited.\nNext'],
    ['Elm Ave. is', 'Elm Avenue is'],
    // numbering: only before a number
    ['No. 5', 'number 5'],
    ['Nos. 5 and 6', 'numbers 5 and 6'],
    ['pp. 12-15', 'pages 12-15'],
    ['see p. 7', 'see page 7'],
    ['Fig. 3', 'Figure 3'],
    ['Vol. 2, Ch. 4', 'Volume 2, Chapter 4'],
    ['Apt. 5B', 'Apartment 5B'],
    ['Jan. 5', 'January 5'],
    ['Sept. 12', 'September 12'],
    // weekdays: before a date or a comma
    ['Tues., Jan. 5', 'Tuesday, January 5'],
    ['Fri. 13', 'Friday 13'],
    ['Mon. March 3', 'Monday March 3'],
  ])('%s → %s', (input, said) => {
    expect(sayAbbreviations(input, US)).toBe(said);
  });

  it('spells "Hon." as the dialect does', () => {
    expect(sayAbbreviations('Hon. Smith', GB)).toBe('Honourable Smith');
  });

  it.each([
    'I said no. Not No. Never.',
    'Mr.',
    'Mr. 5',
    'The Sun. It rose.',
    'Jan. It was cold.',
    'a.m. and p.m.',
    'U.S. Army',
    'Mrs.Smith',
    'visit x.No. 5',
    'Drs. Smith',
    'mr. smith',
  ])('leaves %j alone', (text) => {
    expect(sayAbbreviations(text, US)).toBe(text);
  });
});
