// Speech and transcription on the WebGPU provider give what the CPU provider gives, through the
// whole stack: the same text spoken by `tiny-piper` (CPU) and `tiny-piper-webgpu`, both with
// the noise scales at 0 (Piper draws its noise inside the graph, so no seed could match it),
// is the same audio within a stated tolerance; the same clip transcribed greedily by
// `tiny-whisper` and `tiny-whisper-webgpu` is the same text.
import { toFile } from 'openai';
import { testAudio } from '../support/transcription-stack';
import { onWebgpu, useWebgpuStack } from './webgpu-stack';

const SPEECH = 'tiny-piper';
const TRANSCRIPTION = 'tiny-whisper';
/**
 * The bar for speech, in 16-bit sample steps (full scale 32768) at the API's 24 kHz: float
 * rounding in the graph moves a sample by far less than a step before the int16 truncation, so a
 * step or two after it and ffmpeg's resampling; a different phoneme duration or a wrong kernel
 * moves thousands.
 */
const MAX_SAMPLE_DELTA = 8;
/** Two sentences: two voice runs, each peak-normalised on its own. */
const SPEECH_INPUT = 'The quick brown fox jumps over the lazy dog. It was a sunny day.';

const stack = useWebgpuStack(['speech', 'transcription']);
const client = () => stack().client;

/** 16-bit little-endian mono samples, as `response_format: 'pcm'` sends them. */
async function speak(model: string): Promise<Int16Array> {
  const response = await client().audio.speech.create({
    model,
    voice: 'alloy',
    input: SPEECH_INPUT,
    response_format: 'pcm',
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
}

describe('speech', () => {
  it(`is the CPU's audio within ${MAX_SAMPLE_DELTA} sample steps, sample for sample`, async () => {
    const cpu = await speak(SPEECH);
    const webgpu = await speak(onWebgpu(SPEECH));
    expect(cpu.length).toBeGreaterThan(0);
    expect(webgpu.length).toBe(cpu.length);
    let largest = 0;
    let peak = 0;
    for (let i = 0; i < cpu.length; i++) {
      largest = Math.max(largest, Math.abs(webgpu[i] - cpu[i]));
      peak = Math.max(peak, Math.abs(cpu[i]));
    }
    console.log(`speech: largest |sample delta| webgpu/cpu ${largest} of ${cpu.length} samples`);
    expect(largest).toBeLessThanOrEqual(MAX_SAMPLE_DELTA);
    // Not silence on both sides: the comparison compared something.
    expect(peak).toBeGreaterThan(1000);
  });
});

describe('transcription', () => {
  it("greedy decoding writes the CPU's text", async () => {
    const clip = await testAudio('wav', 3);
    const [cpu, webgpu] = await Promise.all(
      [TRANSCRIPTION, onWebgpu(TRANSCRIPTION)].map(async (model) =>
        client().audio.transcriptions.create({
          model,
          file: await toFile(clip, 'clip.wav', { type: 'audio/wav' }),
          temperature: 0,
          response_format: 'json',
        }),
      ),
    );
    console.log(`transcription: ${JSON.stringify(cpu.text)}`);
    expect(cpu.text.length).toBeGreaterThan(0);
    expect(webgpu.text).toBe(cpu.text);
  });
});
