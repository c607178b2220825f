import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import { capabilityServiceModule } from '@tessera/service';
import { TranscribeHandler } from './transcribe.handler';
import { TranscriptionGrpcService } from './transcription.grpc';
import { TranscriptionModels } from './transcription-models';

@Module({})
export class TranscriptionModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return capabilityServiceModule(TranscriptionModule, {
      capability: 'transcription',
      config,
      service: TranscriptionGrpcService,
      providers: [TranscriptionModels, TranscribeHandler],
    });
  }
}
