// The checks of a Synthesize request that depend on the model (its voices, what Piper can do),
// each failing with INVALID_ARGUMENT naming the OpenAI param before any audio: the gateway
// validates shapes and ranges once, at the edge, and these hold for any other caller too.
import { status } from '@grpc/grpc-js';
import {
  GrpcStatusError,
  MAX_SPEECH_INPUT_CHARS,
  MAX_SPEECH_SPEED,
  MIN_SPEECH_SPEED,
  codePointLength,
  exceedsSpeechInputChars,
  AUDIO_FORMATS,
  isAudioFormat,
  type SynthesizeRequest__Output,
  type AudioFormat,
} from '@tessera/contracts';
import type { SpeechModel } from './speech-models';
import type { MappedVoice } from './voice.map';

export interface CheckedSynthesis {
  readonly voice: MappedVoice;
  readonly format: AudioFormat;
  readonly speed: number;
}

function invalid(message: string, param: string): GrpcStatusError {
  return new GrpcStatusError(status.INVALID_ARGUMENT, message, { param, code: null });
}

export function checkSynthesis(
  model: SpeechModel,
  request: SynthesizeRequest__Output,
): CheckedSynthesis {
  if (request.input === '') throw invalid('input must not be empty.', 'input');
  if (exceedsSpeechInputChars(request.input)) {
    throw invalid(
      `input is ${codePointLength(request.input)} characters long; at most ${MAX_SPEECH_INPUT_CHARS} are allowed.`,
      'input',
    );
  }
  const voice = model.voiceMap.get(request.voice);
  if (!voice) {
    throw invalid(
      `The voice '${request.voice}' is not available for the model '${model.spec.id}'. ` +
        `Its voices: ${model.voices.join(', ')}.`,
      'voice',
    );
  }
  // proto3 leaves an unset speed 0: the default, 1.
  const speed = request.speed === 0 ? 1 : request.speed;
  if (!(speed >= MIN_SPEECH_SPEED && speed <= MAX_SPEECH_SPEED)) {
    throw invalid(
      `speed must be between ${MIN_SPEECH_SPEED} and ${MAX_SPEECH_SPEED}, got ${speed}.`,
      'speed',
    );
  }
  if (request.instructions !== '') {
    throw invalid(
      `The model '${model.spec.id}' cannot follow instructions: its Piper voices speak the ` +
        'input as written. Leave instructions out.',
      'instructions',
    );
  }
  const format = request.response_format === '' ? 'mp3' : request.response_format;
  if (!isAudioFormat(format)) {
    throw invalid(
      `response_format '${format}' is not supported; use one of ${AUDIO_FORMATS.join(', ')}.`,
      'response_format',
    );
  }
  return { voice, format, speed };
}
