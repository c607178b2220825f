// The moderation capability as the shared service host runs it: its gRPC handler, and its
// models' load (with warm-up), list and close. The host adds ListModels, health and the drain.
import { Injectable } from '@nestjs/common';
import type { ModerationHandlers } from '@tessera/contracts';
import { GrpcServerMetrics } from '@tessera/observability';
import { GrpcHandlerWrapper, type CapabilityService, type ServedModel } from '@tessera/service';
import { ClassifyHandler } from './classify.handler';
import { ModerationModels } from './moderation-models';

@Injectable()
export class ModerationGrpcService implements CapabilityService {
  readonly handlers: Omit<ModerationHandlers, 'ListModels'>;

  constructor(
    private readonly moderationModels: ModerationModels,
    classifyHandler: ClassifyHandler,
    metrics: GrpcServerMetrics,
  ) {
    const wrap = new GrpcHandlerWrapper(metrics);
    this.handlers = {
      Classify: wrap.unary((request, ctx) => classifyHandler.classify(request, ctx)),
    };
  }

  load(): Promise<void> {
    return this.moderationModels.load();
  }

  models(): readonly ServedModel[] {
    return this.moderationModels.all();
  }

  close(): Promise<void> {
    return this.moderationModels.close();
  }
}
