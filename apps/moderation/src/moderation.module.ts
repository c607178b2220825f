import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import { capabilityServiceModule } from '@tessera/service';
import { ClassifyHandler } from './classify.handler';
import { ModerationModels } from './moderation-models';
import { ModerationGrpcService } from './moderation.grpc';

@Module({})
export class ModerationModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return capabilityServiceModule(ModerationModule, {
      capability: 'moderation',
      config,
      service: ModerationGrpcService,
      providers: [ModerationModels, ClassifyHandler],
    });
  }
}
