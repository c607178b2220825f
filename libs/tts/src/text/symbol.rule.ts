// Small marks before numbers that espeak reads literally: "#1" ("hash one") → "number 1",
// "~5" / "≈5" ("tilde five") → "approximately 5", and British dotted times before am/pm
// ("3.30pm", "three point three zero") → "3:30 pm", which espeak reads as a time.

const HASH_NUMBER = /(?<![\w&#])#[ \t]?(?=\d)/g;
const ABOUT = /(?<![\w~≈])[~≈][ \t]?(?=\d|[$£€¥₹])/g;
const DOTTED_TIME =
  /(?<![\w.:])(1[0-2]|0?[1-9])\.([0-5]\d)[ \t]?(am|pm|AM|PM|a\.m\.|p\.m\.)(?!\w)/g;

export function saySymbols(text: string): string {
  return text
    .replace(HASH_NUMBER, 'number ')
    .replace(ABOUT, 'approximately ')
    .replace(DOTTED_TIME, '$1:$2 $3');
}
