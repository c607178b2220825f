// POST /v1/audio/transcriptions and /v1/audio/translations: the multipart upload
// (audio-form.reader.ts), its fields (transcription.request.ts), the Transcribe call to the
// transcription service (transcription.controller.ts) and the answer in each response_format
// (transcription.response.ts, transcription-subtitles.format.ts) or as server-sent events
// (transcription-sse.body.ts).
import { Module } from '@nestjs/common';
import { TranscriptionController } from './transcription.controller';

@Module({ controllers: [TranscriptionController] })
export class TranscriptionModule {}
