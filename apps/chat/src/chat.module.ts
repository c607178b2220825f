import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import { capabilityServiceModule } from '@tessera/service';
import { ChatModels } from './chat-models';
import { ChatGrpcService } from './chat.grpc';
import { GenerateHandler } from './generate.handler';

@Module({})
export class ChatModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return capabilityServiceModule(ChatModule, {
      capability: 'chat',
      config,
      service: ChatGrpcService,
      providers: [ChatModels, GenerateHandler],
    });
  }
}
