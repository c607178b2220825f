// The chat capability as the shared service host runs it: its Generate handler, and its models'
// load (with warm-up), list (with their context length) and close. The host adds ListModels,
// health and the drain.
import { Injectable } from '@nestjs/common';
import type { ChatHandlers } from '@tessera/contracts';
import { GrpcServerMetrics } from '@tessera/observability';
import { GrpcHandlerWrapper, type CapabilityService, type ServedModel } from '@tessera/service';
import { ChatModels } from './chat-models';
import { GenerateHandler } from './generate.handler';

@Injectable()
export class ChatGrpcService implements CapabilityService {
  readonly handlers: Omit<ChatHandlers, 'ListModels'>;

  constructor(
    private readonly chatModels: ChatModels,
    generateHandler: GenerateHandler,
    metrics: GrpcServerMetrics,
  ) {
    const wrap = new GrpcHandlerWrapper(metrics);
    this.handlers = {
      Generate: wrap.serverStream((request, ctx) => generateHandler.generate(request, ctx)),
    };
  }

  load(): Promise<void> {
    return this.chatModels.load();
  }

  models(): readonly ServedModel[] {
    return this.chatModels.all();
  }

  readiness(): Record<string, boolean> {
    return this.chatModels.readiness();
  }

  close(): Promise<void> {
    return this.chatModels.close();
  }
}
