// SubRip (srt) and WebVTT (vtt) from the transcript's segments, as Whisper writes them
// (openai-whisper utils.py WriteSRT / WriteVTT): one cue per segment, its text without the
// leading space, hours always shown, milliseconds after a comma (SRT) or a full stop (VTT).

export interface SubtitleCue {
  start: number;
  end: number;
  text: string;
}

/** Seconds as HH:MM:SS,mmm (SRT) or HH:MM:SS.mmm (VTT). */
export function subtitleTime(seconds: number, separator: ',' | '.'): string {
  const millis = Math.round(Math.max(0, seconds) * 1000);
  const hours = Math.floor(millis / 3_600_000);
  const minutes = Math.floor(millis / 60_000) % 60;
  const secs = Math.floor(millis / 1000) % 60;
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(secs)}${separator}${pad(millis % 1000, 3)}`;
}

/** A cue's text on its lines: no blank line inside (it would end the cue), no arrow. */
function cueText(text: string): string {
  return text
    .trim()
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .join('\n')
    .replaceAll('-->', '->');
}

export function toSrt(cues: readonly SubtitleCue[]): string {
  return cues
    .map(
      (cue, index) =>
        `${index + 1}\n${subtitleTime(cue.start, ',')} --> ${subtitleTime(cue.end, ',')}\n` +
        `${cueText(cue.text)}\n\n`,
    )
    .join('');
}

export function toVtt(cues: readonly SubtitleCue[]): string {
  return (
    'WEBVTT\n\n' +
    cues
      .map(
        (cue) =>
          `${subtitleTime(cue.start, '.')} --> ${subtitleTime(cue.end, '.')}\n` +
          `${cueText(cue.text)}\n\n`,
      )
      .join('')
  );
}
