// What an encoded audio file is, as ffprobe (an independent reader) sees it: codec, sample rate,
// channels and duration. For tests that verify what the encoder and the speech endpoint send.
import { execFile } from 'node:child_process';
import { locateFfprobe } from './ffmpeg.locate';

export interface AudioProbe {
  /** ffprobe's codec_name: mp3, opus, aac, flac, pcm_s16le. */
  codecName: string;
  /** ffprobe's format_name: mp3, ogg, aac (ADTS), flac, wav. */
  formatName: string;
  /** As ffprobe reports it; 48000 for every Opus stream, which always decodes at 48 kHz. */
  sampleRate: number;
  /** For Opus, the rate the encoder was given (OpusHead's input sample rate). */
  opusInputSampleRate?: number;
  channels: number;
  /**
   * Seconds: the sum of the packets' durations. Streamed files carry no total (wav's sizes are
   * 0xFFFFFFFF, flac's total samples 0), so the header's would be an estimate or missing.
   */
  durationSeconds: number;
}

interface FfprobeJson {
  streams?: Array<{ codec_name?: string; sample_rate?: string; channels?: number }>;
  format?: { format_name?: string };
  packets?: Array<{ duration_time?: string }>;
}

/** OpusHead (RFC 7845 §5.1): magic, version, channels, pre-skip, then the input rate (LE u32). */
function opusInputSampleRate(bytes: Buffer): number | undefined {
  const at = bytes.indexOf('OpusHead');
  return at >= 0 && at + 16 <= bytes.length ? bytes.readUInt32LE(at + 12) : undefined;
}

/** Probes encoded audio (a whole file's bytes), read by ffprobe from its stdin. */
export async function probeAudio(audio: Uint8Array): Promise<AudioProbe> {
  const ffprobe = await locateFfprobe();
  const bytes = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
  const args = [
    ...['-v', 'error', '-of', 'json', '-select_streams', 'a:0'],
    ...[
      '-show_entries',
      'stream=codec_name,sample_rate,channels:format=format_name:packet=duration_time',
    ],
    'pipe:0',
  ];
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(
      ffprobe.path,
      args,
      { maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (error, out, err) => {
        if (error) reject(new Error(`ffprobe failed: ${String(err).trim() || error.message}`));
        else resolve(out);
      },
    );
    child.stdin?.on('error', () => undefined); // it may stop reading before the end
    child.stdin?.end(bytes);
  });
  const parsed = JSON.parse(stdout) as FfprobeJson;
  const stream = parsed.streams?.[0];
  if (!stream) throw new Error('ffprobe found no audio stream');
  const durationSeconds = (parsed.packets ?? []).reduce(
    (sum, packet) => sum + (Number(packet.duration_time) || 0),
    0,
  );
  const probe: AudioProbe = {
    codecName: stream.codec_name ?? '',
    formatName: parsed.format?.format_name ?? '',
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels ?? 0,
    durationSeconds,
  };
  const opusRate = probe.codecName === 'opus' ? opusInputSampleRate(bytes) : undefined;
  return opusRate === undefined ? probe : { ...probe, opusInputSampleRate: opusRate };
}
