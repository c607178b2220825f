// The whole engine through its worker pool on the tiny random-weight fixtures: what the model
// reports, the result's shape and invariants (random weights say nothing sensible, so the words
// are checked on real weights by test/extended), streaming, word timestamps and cancellation.
import { join } from 'node:path';
import { WHISPER_SAMPLE_RATE, type TranscriptSegment } from './transcription.contract';
import { WhisperModel } from './whisper.model';

const FIXTURES = join(__dirname, '../../../test/fixtures/models');

function tone(seconds: number): Float32Array {
  const audio = new Float32Array(seconds * WHISPER_SAMPLE_RATE);
  for (let n = 0; n < audio.length; n++)
    audio[n] = 0.25 * Math.sin((2 * Math.PI * 440 * n) / WHISPER_SAMPLE_RATE);
  return audio;
}

describe('WhisperModel (tiny-whisper fixtures)', () => {
  let model: WhisperModel;
  let noalign: WhisperModel;
  const runtime = { workers: 1, intra_op_threads: 1 };

  beforeAll(async () => {
    model = await WhisperModel.load({ modelDir: join(FIXTURES, 'tiny-whisper'), runtime });
    noalign = await WhisperModel.load({
      modelDir: join(FIXTURES, 'tiny-whisper-noalign'),
      runtime,
      options: { concurrency: 1 },
    });
  }, 120_000);
  afterAll(async () => {
    await model?.close();
    await noalign?.close();
  });

  it('reports what the model can do', () => {
    expect(model.info.multilingual).toBe(true);
    expect(model.info.languages).toEqual(expect.arrayContaining(['en', 'fr', 'de']));
    expect(model.info.wordTimestamps).toBe(true);
    expect(noalign.info.wordTimestamps).toBe(false);
  });

  it('transcribes over several windows, streaming each segment once, in order', async () => {
    const streamed: TranscriptSegment[] = [];
    const result = await model.transcribe(
      {
        audio: tone(32),
        task: 'transcribe',
        language: 'en',
        temperature: 0,
        wordTimestamps: false,
      },
      { onSegment: (segment) => streamed.push(segment) },
    );
    expect(result.language).toBe('en');
    expect(result.duration).toBe(32);
    expect(streamed).toEqual(result.segments);
    expect(result.segments.map((s) => s.id)).toEqual(result.segments.map((_, i) => i));
    for (const segment of result.segments) {
      expect(segment.start).toBeLessThanOrEqual(segment.end);
      expect(segment.seek % 1).toBe(0);
      expect(segment.start).toBeGreaterThanOrEqual(segment.seek / 100);
      expect([0, 0.2, 0.4, 0.6, 0.8, 1]).toContain(segment.temperature);
      expect(segment.noSpeechProb).toBeGreaterThanOrEqual(0);
      expect(segment.noSpeechProb).toBeLessThanOrEqual(1);
    }
    expect(result.text).toBe(
      result.segments
        .map((s) => s.text)
        .join('')
        .trim(),
    );
    expect(result.outputTokens).toBeGreaterThan(0);
    expect(result.words).toBeUndefined();
  });

  it('detects the language on a multilingual model and gives words when asked', async () => {
    const result = await model.transcribe({
      audio: tone(5),
      task: 'translate',
      temperature: 0,
      wordTimestamps: true,
    });
    expect(model.info.languages).toContain(result.language);
    expect(Array.isArray(result.words)).toBe(true);
    for (const word of result.words!) {
      expect(word.start).toBeLessThanOrEqual(word.end);
      expect(word.end).toBeLessThanOrEqual(30);
    }
  });

  it('stops a job whose signal fires', async () => {
    const controller = new AbortController();
    const running = model.transcribe(
      {
        audio: tone(120),
        task: 'transcribe',
        language: 'en',
        temperature: 0,
        wordTimestamps: false,
      },
      { signal: controller.signal, onSegment: () => controller.abort() },
    );
    setTimeout(() => controller.abort(), 2000);
    await expect(running).rejects.toThrow();
  });
});
