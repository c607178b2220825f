// Money: espeak reads "$3.50" as "dollar three point five zero" and "€3.2 million" as "euros
// three point two million". Rewritten the way people say it, numbers kept as digits (espeak
// reads those right): "3 dollars and 50 cents", "3.2 million euros", "minus 5 dollars",
// "5 to 10 dollars". Hand-written: the number-to-words libraries (to-words' currency mode
// included) spell the whole amount in words with fixed wording ("… Only") and know nothing of
// symbols in running text, scale words ("$3.2M") or ranges; this rule only reorders.
import { isOne, NUMBER } from './number.patterns';

interface Currency {
  readonly one: string;
  readonly many: string;
  /** The hundredth, when amounts are said with it ("cents"); none for yen. */
  readonly minor?: { readonly one: string; readonly many: string };
}

const CENT = { one: 'cent', many: 'cents' };
const dollar = (who = ''): Currency => ({
  one: `${who}dollar`,
  many: `${who}dollars`,
  minor: CENT,
});
const EURO: Currency = { one: 'euro', many: 'euros', minor: CENT };
const POUND: Currency = { one: 'pound', many: 'pounds', minor: { one: 'penny', many: 'pence' } };
const YEN: Currency = { one: 'yen', many: 'yen' };
const RUPEE: Currency = { one: 'rupee', many: 'rupees', minor: { one: 'paisa', many: 'paise' } };

const SYMBOLS: Record<string, Currency> = {
  $: dollar(),
  US$: dollar('US '),
  C$: dollar('Canadian '),
  CA$: dollar('Canadian '),
  A$: dollar('Australian '),
  AU$: dollar('Australian '),
  NZ$: dollar('New Zealand '),
  HK$: dollar('Hong Kong '),
  S$: dollar('Singapore '),
  '£': POUND,
  '€': EURO,
  '¥': YEN,
  '₹': RUPEE,
};

const CODES: Record<string, Currency> = {
  USD: dollar('US '),
  EUR: EURO,
  GBP: POUND,
  JPY: YEN,
  INR: RUPEE,
  CAD: dollar('Canadian '),
  AUD: dollar('Australian '),
  CHF: { one: 'Swiss franc', many: 'Swiss francs', minor: { one: 'centime', many: 'centimes' } },
  CNY: { one: 'yuan', many: 'yuan' },
};

const SCALE_ABBREVIATIONS: Record<string, string> = {
  k: 'thousand',
  K: 'thousand',
  m: 'million',
  M: 'million',
  mn: 'million',
  b: 'billion',
  B: 'billion',
  bn: 'billion',
  tn: 'trillion',
  T: 'trillion',
};

const SYMBOL = String.raw`US\$|CA\$|AU\$|NZ\$|HK\$|C\$|A\$|S\$|\$|£|€|¥|₹`;
const SCALE_WORD = 'thousand|million|billion|trillion';
const SCALE = String.raw`[ \t](${SCALE_WORD})|(bn|mn|tn|[kKmMbBT])`;
const CODE = Object.keys(CODES).join('|');

// "$3.50", "$-5", "$5-10", "$5–$10 million", "$3.2M", "€2.8 billion". The pattern starts at
// the symbol (a sign before it is read by MINUS_BEFORE_SYMBOL), so the scan skips ahead fast.
const SYMBOL_AMOUNT = new RegExp(
  String.raw`(?<![\w$£€¥₹])(${SYMBOL})\s?([-−])?(${NUMBER})` +
    String.raw`(?:(?:-|\s?–\s?)(?:${SYMBOL})?(${NUMBER}))?(?:${SCALE})?(?![\w$£€¥₹])`,
  'g',
);
// "-$5" → "minus $5" before the amounts are said.
const MINUS_BEFORE_SYMBOL = new RegExp(String.raw`(?<![\w.,])[-−]\s?(?=(?:${SYMBOL})\s?\d)`, 'g');
const ANY_SYMBOL = /[$£€¥₹]/;
const ANY_CODE = new RegExp(String.raw`\b(?:${CODE})\b`);
// "USD 5", "5 USD", "10 million EUR".
const CODE_BEFORE = new RegExp(
  String.raw`(?<![\w])(${CODE})[ \t]?([-−])?(${NUMBER})(?:[ \t](${SCALE_WORD}))?(?![\w.,]\d|\w)`,
  'g',
);
const CODE_AFTER = new RegExp(
  String.raw`(?<![\w.,])([-−])?(${NUMBER})(?:[ \t](${SCALE_WORD}))?[ \t]?(${CODE})(?!\w)`,
  'g',
);

/** One amount, said: "3 dollars and 50 cents", "50 cents", "1 dollar", "3.505 dollars". */
function amount(number: string, currency: Currency): string {
  const [whole, fraction] = number.split('.');
  if (fraction === undefined) return `${whole} ${isOne(whole) ? currency.one : currency.many}`;
  if (!currency.minor || fraction.length > 2) return `${number} ${currency.many}`;
  const minor = Number(fraction.padEnd(2, '0'));
  const major = `${whole} ${isOne(whole) ? currency.one : currency.many}`;
  if (minor === 0) return major;
  const cents = `${minor} ${minor === 1 ? currency.minor.one : currency.minor.many}`;
  return /^[0,]+$/.test(whole) ? cents : `${major} and ${cents}`;
}

/** An amount or a range, with an optional scale word and sign. */
function say(
  sign: string,
  currency: Currency,
  from: string,
  to: string | undefined,
  scale: string | undefined,
): string {
  const minus = sign ? 'minus ' : '';
  if (scale) return `${minus}${from}${to ? ` to ${to}` : ''} ${scale} ${currency.many}`;
  if (to === undefined) return minus + amount(from, currency);
  if (!from.includes('.') && !to.includes('.')) {
    return `${minus}${from} to ${to} ${isOne(to) ? currency.one : currency.many}`;
  }
  return `${minus}${amount(from, currency)} to ${amount(to, currency)}`;
}

export function sayCurrency(text: string): string {
  let t = text;
  if (ANY_SYMBOL.test(t)) {
    t = t
      .replace(MINUS_BEFORE_SYMBOL, 'minus ')
      .replace(
        SYMBOL_AMOUNT,
        (_m, symbol: string, sign?: string, from?: string, ...rest: unknown[]) => {
          const [to, scaleWord, scaleAbbr] = rest as (string | undefined)[];
          const scale = scaleWord ?? (scaleAbbr ? SCALE_ABBREVIATIONS[scaleAbbr] : undefined);
          return say(sign ?? '', SYMBOLS[symbol], from!, to, scale);
        },
      );
  }
  if (!ANY_CODE.test(t)) return t;
  return t
    .replace(CODE_BEFORE, (_m, code: string, sign?: string, number?: string, scale?: string) =>
      say(sign ?? '', CODES[code], number!, undefined, scale),
    )
    .replace(CODE_AFTER, (_m, sign?: string, number?: string, scale?: string, code?: string) =>
      say(sign ?? '', CODES[code!], number!, undefined, scale),
    );
}
