// The transcript as each response_format gives it, from the service's TranscribeResponse:
// json → {text, usage}; verbose_json → {task, language, duration, text, segments?, words?,
// usage}; text, srt and vtt → plain bodies. Usage is the spec's duration usage (whisper-1 bills
// seconds of audio, rounded up as OpenAI's are); the language is Whisper's name for it
// ("english"), as whisper-1 reports it.
import type { TranscribeResponse__Output } from '@tessera/contracts';
import { whisperLanguageName } from './transcription.languages';
import type { TranscriptionRequest } from './transcription.request';
import { toSrt, toVtt } from './transcription-subtitles.format';

export type Transcript = TranscribeResponse__Output;

export interface TranscriptBody {
  contentType: string;
  body: string | object;
}

const PLAIN = 'text/plain; charset=utf-8';

export interface DurationUsage {
  type: 'duration';
  seconds: number;
}

export function durationUsage(transcript: Transcript): DurationUsage {
  return { type: 'duration', seconds: Math.ceil(transcript.duration) };
}

export function transcriptBody(
  transcript: Transcript,
  request: TranscriptionRequest,
): TranscriptBody {
  switch (request.responseFormat) {
    case 'json':
      // CreateTranslationResponseJson is the text alone.
      return {
        contentType: 'application/json',
        body:
          request.task === 'translate'
            ? { text: transcript.text }
            : { text: transcript.text, usage: durationUsage(transcript) },
      };
    case 'verbose_json':
      return { contentType: 'application/json', body: verboseJson(transcript, request) };
    case 'text':
      return { contentType: PLAIN, body: `${transcript.text}\n` };
    case 'srt':
      return { contentType: PLAIN, body: toSrt(transcript.segments) };
    case 'vtt':
      // text/vtt: the type browsers require of a <track>'s captions.
      return { contentType: 'text/vtt; charset=utf-8', body: toVtt(transcript.segments) };
  }
}

function verboseJson(transcript: Transcript, request: TranscriptionRequest): object {
  const translated = request.task === 'translate';
  return {
    task: request.task,
    // A translation is in English whatever the audio's language (the spec: "always english").
    language: translated ? 'english' : whisperLanguageName(transcript.language),
    duration: transcript.duration,
    text: transcript.text,
    ...(request.granularities.includes('segment') && {
      segments: transcript.segments.map((segment) => ({
        id: segment.id,
        seek: segment.seek,
        start: segment.start,
        end: segment.end,
        text: segment.text,
        tokens: segment.tokens,
        temperature: segment.temperature,
        avg_logprob: segment.avg_logprob,
        compression_ratio: segment.compression_ratio,
        no_speech_prob: segment.no_speech_prob,
      })),
    }),
    ...(request.granularities.includes('word') && {
      words: transcript.words.map(({ word, start, end }) => ({ word, start, end })),
    }),
    ...(!translated && { usage: durationUsage(transcript) }),
  };
}
