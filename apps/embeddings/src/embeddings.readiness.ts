import { Injectable } from '@nestjs/common';
import type { ReadinessCheck } from '@tessera/observability';
import { EmbeddingModels } from './embedding-models';

@Injectable()
export class EmbeddingsReadiness implements ReadinessCheck {
  constructor(private readonly models: EmbeddingModels) {}

  async readiness(): Promise<Record<string, boolean>> {
    return { models: this.models.ready };
  }
}
