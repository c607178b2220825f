// POST /v1/audio/speech: the request schema (speech.request.ts), the Synthesize call to the
// speech service (speech.controller.ts) and the body it streams into, raw audio
// (speech-audio.body.ts) or server-sent events (speech-sse.body.ts).
import { Module } from '@nestjs/common';
import { SpeechController } from './speech.controller';

@Module({ controllers: [SpeechController] })
export class SpeechModule {}
