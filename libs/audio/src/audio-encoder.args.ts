// The ffmpeg command line of the streaming encoder: raw 16-bit PCM in → one of the speech
// formats, 24 kHz mono, out (stdin/stdout, or the Unix sockets audio.encoder.ts listens on). One table, so that what each format is (codec, container,
// bitrate) is read in one place.
import type { AudioFormat } from '@tessera/contracts';
import { SPEECH_OUTPUT_SAMPLE_RATE } from './audio-format';

/** Encoders the formats below need; ffmpeg.locate passes over an ffmpeg that lacks one. */
export const REQUIRED_ENCODERS = ['libmp3lame', 'libopus', 'aac', 'flac', 'pcm_s16le'] as const;

/**
 * Codec, container and their options per format. The output is a stream, so nothing is written
 * back at the end: wav goes out with 0xFFFFFFFF in its RIFF and data sizes ("until the end of
 * the stream", as OpenAI streams it), flac with 0 ("unknown") total samples in STREAMINFO, mp3
 * without a Xing/LAME frame (it would be a placeholder) or an ID3 tag.
 */
const FORMAT_ARGS: Readonly<Record<AudioFormat, readonly string[]>> = {
  mp3: [
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-write_xing',
    '0',
    '-id3v2_version',
    '0',
    '-f',
    'mp3',
  ],
  // Ogg writes a page when it is full; 100 ms pages keep a sentence's tail from waiting for the
  // next sentence (the default, 1 s, would hold up to a second of audio).
  opus: ['-c:a', 'libopus', '-b:a', '32k', '-page_duration', '100000', '-f', 'ogg'],
  aac: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  pcm: ['-c:a', 'pcm_s16le', '-f', 's16le'],
};

/** Where ffmpeg reads the PCM and writes the encoded bytes (ffmpeg URLs: `pipe:0`, `unix:…`). */
export interface EncoderEnds {
  readonly input: string;
  readonly output: string;
}

/** The whole argument list for PCM at `inputSampleRate` into `format`. */
export function audioEncoderArgs(
  format: AudioFormat,
  inputSampleRate: number,
  ends: EncoderEnds,
): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error'],
    // Raw input needs no probing; the smallest probe lets ffmpeg start on the first bytes. Not
    // `-fflags +nobuffer`: on raw piped input it drops samples (seen with ffmpeg 4.1).
    ...['-f', 's16le', '-ar', String(inputSampleRate), '-ac', '1'],
    ...['-probesize', '32', '-analyzeduration', '0', '-i', ends.input],
    ...['-ar', String(SPEECH_OUTPUT_SAMPLE_RATE), '-ac', '1'],
    // No tags naming the ffmpeg build; each packet written out as soon as it is muxed.
    ...['-map_metadata', '-1', '-fflags', '+bitexact', '-flush_packets', '1'],
    ...FORMAT_ARGS[format],
    ends.output,
  ];
}
