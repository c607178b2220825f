// The ffmpeg command line of the decoder: an uploaded file (any of TRANSCRIPTION_INPUT_FORMATS)
// → its first audio stream as mono float32 little-endian samples on stdout. Every option that
// bounds what a hostile file can make ffmpeg do is here, in one place.

/**
 * The demuxers ffmpeg may pick for an upload (matched against each demuxer's names: `mov` is
 * mov/mp4/m4a, `matroska` is matroska/webm, `mpeg` the MPEG program stream). Everything else —
 * playlists (hls, concat), image sequences, raw codecs, the hundreds of exotic formats — is
 * refused before it is parsed, whatever the content sniffs as.
 */
export const AUDIO_DECODER_DEMUXERS = ['mp3', 'mov', 'wav', 'matroska', 'ogg', 'flac', 'mpeg'];

/**
 * How much ffmpeg may read (bytes) and analyse (microseconds of media) to find the streams,
 * ffmpeg's own defaults written out so that they cannot drift: a file that does not reveal its
 * streams within them is refused instead of being probed to its end.
 */
export const DECODER_PROBE_BYTES = 5_000_000;
export const DECODER_ANALYZE_MICROSECONDS = 5_000_000;

/** The whole argument list for the file at `inputPath` → mono f32le at `sampleRate` on stdout. */
export function audioDecoderArgs(inputPath: string, sampleRate: number): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-nostats', '-v', 'error'],
    // Input: a local file and nothing else (no http, no tcp, no data: URLs a playlist could
    // name), a known container, a bounded probe.
    ...['-protocol_whitelist', 'file', '-format_whitelist', AUDIO_DECODER_DEMUXERS.join(',')],
    ...['-probesize', String(DECODER_PROBE_BYTES)],
    ...['-analyzeduration', String(DECODER_ANALYZE_MICROSECONDS)],
    // `file:` so that a path is never read as another protocol's URL.
    ...['-i', `file:${inputPath}`],
    // Exactly one stream, the first audio one: video, subtitles and data are never decoded, and
    // a file without audio fails here ("matches no streams") instead of giving silence.
    ...['-map', '0:a:0', '-vn', '-sn', '-dn'],
    // Mixed down to mono and resampled as openai-whisper's load_audio does (-ac 1 -ar 16000),
    // kept as float32 rather than its 16-bit (what the feature extractor takes, no rounding).
    ...['-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_f32le', '-f', 'f32le', 'pipe:1'],
  ];
}
