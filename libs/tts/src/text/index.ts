// Text normalisation for speech: what espeak-ng should read instead of what was written.
export { normalizeForSpeech } from './speech-text.normalizer';
