// GET /v1/models and /v1/models/{model}: what the capability services have loaded.
import { Module } from '@nestjs/common';
import { ModelsController } from './models.controller';

@Module({ controllers: [ModelsController] })
export class ModelsModule {}
