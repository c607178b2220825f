import { TranscriptionRequestError, checkTranscriptionAsk } from './transcription.check';
import type { WhisperModelInfo } from './transcription.contract';

const englishOnly: WhisperModelInfo = {
  multilingual: false,
  languages: ['en'],
  wordTimestamps: true,
};
const multilingual: WhisperModelInfo = {
  multilingual: true,
  languages: ['en', 'de', 'fr'],
  wordTimestamps: false,
};

function refusal(info: WhisperModelInfo, ask: Parameters<typeof checkTranscriptionAsk>[2]) {
  try {
    checkTranscriptionAsk('m', info, ask);
  } catch (error) {
    expect(error).toBeInstanceOf(TranscriptionRequestError);
    return error as TranscriptionRequestError;
  }
  return undefined;
}

describe('checkTranscriptionAsk', () => {
  it('lets an English-only model translate English audio (its transcript is the translation)', () => {
    expect(refusal(englishOnly, { task: 'translate', wordTimestamps: false })).toBeUndefined();
    expect(
      refusal(englishOnly, { task: 'translate', language: 'en', wordTimestamps: true }),
    ).toBeUndefined();
  });

  it('refuses another language on an English-only model, naming language', () => {
    const error = refusal(englishOnly, {
      task: 'translate',
      language: 'de',
      wordTimestamps: false,
    });
    expect(error?.param).toBe('language');
    expect(error?.message).toMatch(/English-only.*translates English audio only/);
    expect(
      refusal(englishOnly, { task: 'transcribe', language: 'fr', wordTimestamps: false })?.param,
    ).toBe('language');
  });

  it('refuses a language the multilingual model does not know, listing those it does', () => {
    const error = refusal(multilingual, {
      task: 'transcribe',
      language: 'xx',
      wordTimestamps: false,
    });
    expect(error?.param).toBe('language');
    expect(error?.message).toContain('en, de, fr');
    expect(
      refusal(multilingual, { task: 'translate', language: 'de', wordTimestamps: false }),
    ).toBeUndefined();
  });

  it('refuses words on a model without cross-attentions', () => {
    expect(refusal(multilingual, { task: 'transcribe', wordTimestamps: true })?.param).toBe(
      'timestamp_granularities',
    );
  });
});
