// The transcription capability as the shared service host runs it: its Transcribe handler (the
// upload in, the transcript out, both streamed), and its models' load (with warm-up), list and
// close. The host adds ListModels, health and the drain.
import { Injectable } from '@nestjs/common';
import type { TranscriptionHandlers } from '@tessera/contracts';
import { GrpcServerMetrics } from '@tessera/observability';
import { GrpcHandlerWrapper, type CapabilityService, type ServedModel } from '@tessera/service';
import { TranscribeHandler } from './transcribe.handler';
import { TranscriptionModels } from './transcription-models';

@Injectable()
export class TranscriptionGrpcService implements CapabilityService {
  readonly handlers: Omit<TranscriptionHandlers, 'ListModels'>;

  constructor(
    private readonly transcriptionModels: TranscriptionModels,
    transcribeHandler: TranscribeHandler,
    metrics: GrpcServerMetrics,
  ) {
    const wrap = new GrpcHandlerWrapper(metrics);
    this.handlers = {
      Transcribe: wrap.bidiStream((requests, ctx) => transcribeHandler.transcribe(requests, ctx)),
    };
  }

  load(): Promise<void> {
    return this.transcriptionModels.load();
  }

  models(): readonly ServedModel[] {
    return this.transcriptionModels.all();
  }

  close(): Promise<void> {
    return this.transcriptionModels.close();
  }
}
