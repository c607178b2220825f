// Temperatures and units after a number. espeak reads "72°F" as "seventy two degrees F",
// "100 km" as "one hundred K M" and "10 mph" as "ten M P H". Said in full, singular for exactly
// one: "72 degrees Fahrenheit", "1 kilometre", "60 kilometers per hour". Only unambiguous units:
// "m", "g", "in", "L" stay as written (a metre or a million? the word "in"?).
import type { EnglishDialect } from './english.dialect';
import { isOne, NUMBER } from './number.patterns';

const SCALES: Record<string, string> = { C: 'Celsius', F: 'Fahrenheit', K: 'Kelvin' };

// 72°F, -5 °C, 30°, 22℃ (the degree sign, its look-alikes "º" "˚", and the one-glyph ℃ ℉).
const DEGREES = new RegExp(
  String.raw`(?<![\w.])([-−+]?(?:${NUMBER}))[ \t]?(?:[°º˚][ \t]?([CFK])?|(℃)|(℉))(?![\w°])`,
  'g',
);

type Spelling = EnglishDialect['spelling'];
const metric = (stem: string) => (spelling: Spelling) =>
  `${stem}${spelling === 'us' ? 'meter' : 'metre'}`;
const litre = (spelling: Spelling) => (spelling === 'us' ? 'milliliter' : 'millilitre');

/** Unit → its singular; plurals add "s" unless given as [singular, plural]. */
const UNITS: Record<string, string | [string, string] | ((spelling: Spelling) => string)> = {
  km: metric('kilo'),
  cm: metric('centi'),
  mm: metric('milli'),
  kg: 'kilogram',
  mg: 'milligram',
  ml: litre,
  mL: litre,
  ft: ['foot', 'feet'],
  oz: 'ounce',
  lb: 'pound',
  lbs: 'pound',
  mi: 'mile',
  mph: ['mile per hour', 'miles per hour'],
  'km/h': (s) => `${metric('kilo')(s)} per hour`,
  kph: (s) => `${metric('kilo')(s)} per hour`,
  hr: 'hour',
  hrs: 'hour',
  min: 'minute',
  mins: 'minute',
  sec: 'second',
  secs: 'second',
  kW: 'kilowatt',
  kWh: ['kilowatt hour', 'kilowatt hours'],
};

const UNIT = new RegExp(
  String.raw`(?<![\w.])(${NUMBER})[ \t]?(${Object.keys(UNITS)
    .sort((a, b) => b.length - a.length)
    .map((u) => u.replace('/', '\\/'))
    .join('|')})(?![\w/])`,
  'g',
);

function unitName(unit: string, count: string, spelling: Spelling): string {
  const entry = UNITS[unit];
  if (Array.isArray(entry)) return isOne(count) ? entry[0] : entry[1];
  const singular = typeof entry === 'function' ? entry(spelling) : entry;
  if (isOne(count)) return singular;
  // "kilometer per hour" → "kilometers per hour": the plural goes on the unit, not "hour".
  return singular.replace(/^(\S+)/, '$1s');
}

export function sayMeasures(text: string, dialect: EnglishDialect): string {
  return text
    .replace(
      DEGREES,
      (_m, value: string, letter?: string, celsius?: string, fahrenheit?: string) => {
        const scale = letter
          ? SCALES[letter]
          : celsius
            ? 'Celsius'
            : fahrenheit
              ? 'Fahrenheit'
              : '';
        const degrees = isOne(value.replace(/^[-−+]/, '')) ? 'degree' : 'degrees';
        return `${value} ${degrees}${scale ? ` ${scale}` : ''}`;
      },
    )
    .replace(UNIT, (_m, count: string, unit: string) => {
      return `${count} ${unitName(unit, count, dialect.spelling)}`;
    });
}
