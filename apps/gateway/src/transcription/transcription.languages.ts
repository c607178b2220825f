// The languages Whisper knows, by the code the API takes (`language`) and the name OpenAI's
// verbose_json gives back (whisper-1 answers "english", not "en"). The table is Whisper's own
// (openai-whisper tokenizer.py LANGUAGES, as transformers.js' common_whisper.js carries it;
// that module is not part of transformers.js' public exports, and the gateway does not load
// transformers.js at all). Codes are ISO-639-1 except Whisper's `haw` and `jw`.
// prettier-ignore
const WHISPER_LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'english', zh: 'chinese', de: 'german', es: 'spanish', ru: 'russian', ko: 'korean',
  fr: 'french', ja: 'japanese', pt: 'portuguese', tr: 'turkish', pl: 'polish', ca: 'catalan',
  nl: 'dutch', ar: 'arabic', sv: 'swedish', it: 'italian', id: 'indonesian', hi: 'hindi',
  fi: 'finnish', vi: 'vietnamese', he: 'hebrew', uk: 'ukrainian', el: 'greek', ms: 'malay',
  cs: 'czech', ro: 'romanian', da: 'danish', hu: 'hungarian', ta: 'tamil', no: 'norwegian',
  th: 'thai', ur: 'urdu', hr: 'croatian', bg: 'bulgarian', lt: 'lithuanian', la: 'latin',
  mi: 'maori', ml: 'malayalam', cy: 'welsh', sk: 'slovak', te: 'telugu', fa: 'persian',
  lv: 'latvian', bn: 'bengali', sr: 'serbian', az: 'azerbaijani', sl: 'slovenian', kn: 'kannada',
  et: 'estonian', mk: 'macedonian', br: 'breton', eu: 'basque', is: 'icelandic', hy: 'armenian',
  ne: 'nepali', mn: 'mongolian', bs: 'bosnian', kk: 'kazakh', sq: 'albanian', sw: 'swahili',
  gl: 'galician', mr: 'marathi', pa: 'punjabi', si: 'sinhala', km: 'khmer', sn: 'shona',
  yo: 'yoruba', so: 'somali', af: 'afrikaans', oc: 'occitan', ka: 'georgian', be: 'belarusian',
  tg: 'tajik', sd: 'sindhi', gu: 'gujarati', am: 'amharic', yi: 'yiddish', lo: 'lao',
  uz: 'uzbek', fo: 'faroese', ht: 'haitian creole', ps: 'pashto', tk: 'turkmen', nn: 'nynorsk',
  mt: 'maltese', sa: 'sanskrit', lb: 'luxembourgish', my: 'myanmar', bo: 'tibetan',
  tl: 'tagalog', mg: 'malagasy', as: 'assamese', tt: 'tatar', haw: 'hawaiian', ln: 'lingala',
  ha: 'hausa', ba: 'bashkir', jw: 'javanese', su: 'sundanese',
};

/** The code as the API takes it, or undefined when Whisper has no such language. */
export function whisperLanguageCode(given: string): string | undefined {
  const code = given.trim().toLowerCase();
  return Object.hasOwn(WHISPER_LANGUAGE_NAMES, code) ? code : undefined;
}

/** The name OpenAI reports for a code ("en" → "english"); an unknown code is returned as is. */
export function whisperLanguageName(code: string): string {
  return Object.hasOwn(WHISPER_LANGUAGE_NAMES, code) ? WHISPER_LANGUAGE_NAMES[code] : code;
}
